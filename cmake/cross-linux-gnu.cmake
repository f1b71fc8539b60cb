# The cross build for Linux on another processor with Debian's cross
# compiler, included by each processor's toolchain file
# (cmake/<processor>-linux-gnu.cmake), which sets:
#   CMAKE_SYSTEM_PROCESSOR  the processor, also the preset's name
#   particles_triple        the cross compiler's prefix (Debian's GNU triple)
#   particles_multiarch     Debian's library folder for it (/usr/lib/<this>)
#   particles_qemu          the qemu-user program that runs its binaries
# The target's ck, cJSON, xxHash (and cmocka) are unpacked from Debian's
# packages into build/<processor>-sysroot (`.ci/install-cross <processor>`
# does it); the C library comes with the cross compiler. Programs run under
# qemu, whose `-L /` loads the target's loader and libc that multiarch
# installs (libc6:<Debian's name of the processor>), one matching pair.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${particles_triple}-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR ${particles_qemu} -L /)

string(TOUPPER "PARTICLES_${CMAKE_SYSTEM_PROCESSOR}_SYSROOT" particles_env)
if(DEFINED ENV{${particles_env}})
  set(particles_libs $ENV{${particles_env}})
else()
  get_filename_component(particles_libs
    ${CMAKE_CURRENT_LIST_DIR}/../build/${CMAKE_SYSTEM_PROCESSOR}-sysroot ABSOLUTE)
endif()

# pkg-config reads only the target's .pc files and prefixes their paths.
set(ENV{PKG_CONFIG_LIBDIR} ${particles_libs}/usr/lib/${particles_multiarch}/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${particles_libs})

# Libraries and headers from the cross compiler's tree or the unpacked
# packages, never the host's; programs (cmake, pkg-config) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/${particles_triple} ${particles_libs})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
