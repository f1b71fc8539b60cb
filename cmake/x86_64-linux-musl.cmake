# A static x86-64 build on musl's C library instead of glibc (the musl
# preset), with Debian's musl-gcc. ck, cJSON and xxHash are compiled from
# Debian's sources with musl-gcc into build/musl-sysroot, beside a copy of
# the kernel's headers (.ci/install-musl does it). The binary runs here,
# with no emulator.
set(CMAKE_C_COMPILER musl-gcc)
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

if(DEFINED ENV{PARTICLES_MUSL_SYSROOT})
  set(particles_libs $ENV{PARTICLES_MUSL_SYSROOT})
else()
  get_filename_component(particles_libs ${CMAKE_CURRENT_LIST_DIR}/../build/musl-sysroot ABSOLUTE)
endif()
# musl-gcc searches musl's headers alone: the kernel's come from here.
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES ${particles_libs}/usr/include)
# pkg-config reads only the musl builds' .pc files and prefixes their paths.
set(ENV{PKG_CONFIG_LIBDIR} ${particles_libs}/usr/lib/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${particles_libs})
