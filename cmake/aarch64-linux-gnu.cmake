# Cross build for 64-bit ARM Linux (the aarch64 preset).
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(particles_triple aarch64-linux-gnu)
set(particles_multiarch aarch64-linux-gnu)
set(particles_qemu qemu-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
