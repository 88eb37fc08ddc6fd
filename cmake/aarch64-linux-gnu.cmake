# Cross build for 64-bit ARM Linux with Debian's cross compiler (gcc-aarch64-linux-gnu) and the
# arm64 libraries installed beside the native ones (dpkg --add-architecture arm64; scripts/deps.sh
# cross-aarch64). The tests run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR): `make cross-aarch64`.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DNNT_PLPLOT=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# OPENBLAS_NUM_THREADS=1: under qemu-user, OpenBLAS's thread pool beside OpenMP's hung nnt at start-up
# (nnt --version spun for 20 min); nnt's own threads are OpenMP's and stay as set.
set(CMAKE_CROSSCOMPILING_EMULATOR env OPENBLAS_NUM_THREADS=1 qemu-aarch64 -L /usr/aarch64-linux-gnu)
# Debian's multiarch layout: arm64 libraries and their pkg-config files under */aarch64-linux-gnu
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
