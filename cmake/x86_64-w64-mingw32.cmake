# A cross build for 64-bit Windows with Debian's mingw-w64 compiler (the
# windows preset), its POSIX-threads flavour: winpthreads gives the ECS its
# threads, and the wait on addresses is WaitOnAddress. ck, cJSON, xxHash
# and cmocka are compiled from Debian's sources with it into
# build/mingw-sysroot (.ci/install-mingw does it). Programs run under wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# Debian puts the 64-bit wine loader outside PATH.
set(CMAKE_CROSSCOMPILING_EMULATOR /usr/lib/wine/wine64)
# Linked whole: no compiler or threads DLL to find beside the .exe.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

if(DEFINED ENV{PARTICLES_MINGW_SYSROOT})
  set(particles_libs $ENV{PARTICLES_MINGW_SYSROOT})
else()
  get_filename_component(particles_libs ${CMAKE_CURRENT_LIST_DIR}/../build/mingw-sysroot ABSOLUTE)
endif()
# pkg-config reads only these builds' .pc files and prefixes their paths.
set(ENV{PKG_CONFIG_LIBDIR} ${particles_libs}/usr/lib/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${particles_libs})

set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 ${particles_libs})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
