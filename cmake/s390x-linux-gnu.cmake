# Cross build for IBM Z Linux, 64-bit big-endian (the s390x preset).
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(particles_triple s390x-linux-gnu)
set(particles_multiarch s390x-linux-gnu)
set(particles_qemu qemu-s390x)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
