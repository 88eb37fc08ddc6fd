# Cross build for 64-bit ARM Linux with Debian's cross compiler (gcc-aarch64-linux-gnu) and the
# arm64 libraries installed beside the native ones (dpkg --add-architecture arm64; scripts/deps.sh
# cross-aarch64). The tests run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR): `make test-aarch64`.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DNNT_PLPLOT=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# No -L /usr/aarch64-linux-gnu: that prefix holds the cross toolchain's glibc (libc6-arm64-cross,
# 2.36-8), whose ld.so then loads the arm64 libc of dpkg's arm64 architecture (libc6:arm64, 2.36-9+deb12uN,
# pulled in by the arm64 libraries) -- two glibc builds in one process, and the first pthread_create
# loops forever in the stack cache (every nnt command hung; only --version, which starts no thread,
# returned). Without -L the binary's interpreter /lib/ld-linux-aarch64.so.1 is libc6:arm64's own, and
# libgomp1:arm64 comes from the same architecture (scripts/deps.sh cross-aarch64).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
# Debian's multiarch layout: arm64 libraries and their pkg-config files under */aarch64-linux-gnu
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
