# Cross build for 64-bit ARM Linux with Debian's aarch64-linux-gnu-gcc.
# The arm64 builds of ck, cJSON and cmocka are unpacked from Debian's
# packages into build/aarch64-sysroot (.ci/install-aarch64 does it); the
# C library comes with the cross compiler. Tests run under qemu-aarch64,
# whose `-L /` loads the arm64 loader and libc that multiarch installs
# under /lib/aarch64-linux-gnu (libc6:arm64), one matching pair.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)

if(DEFINED ENV{PARTICLES_AARCH64_SYSROOT})
  set(particles_libs $ENV{PARTICLES_AARCH64_SYSROOT})
else()
  get_filename_component(particles_libs ${CMAKE_CURRENT_LIST_DIR}/../build/aarch64-sysroot ABSOLUTE)
endif()

# pkg-config reads only the arm64 .pc files and prefixes their paths.
set(ENV{PKG_CONFIG_LIBDIR} ${particles_libs}/usr/lib/aarch64-linux-gnu/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${particles_libs})

# Libraries and headers from the cross compiler's tree or the unpacked
# packages, never the host's; programs (cmake, pkg-config) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu ${particles_libs})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
