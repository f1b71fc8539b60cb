# Cross build for 32-bit x86 Linux (the i686 preset); Debian calls the
# processor i386.
set(CMAKE_SYSTEM_PROCESSOR i686)
set(particles_triple i686-linux-gnu)
set(particles_multiarch i386-linux-gnu)
set(particles_qemu qemu-i386)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
