/*
 * A stand-in for bcryptprimitives.dll, for running Windows test binaries under Wine 8 only.
 *
 * Rust's standard library on Windows (since 1.78) takes its random bytes from ProcessPrng in
 * bcryptprimitives.dll. Wine 8.0 (Debian 12) does not have that function, so every Rust
 * executable fails to load and exits with status 53 without printing anything. This DLL exports
 * ProcessPrng and answers it with RtlGenRandom (SystemFunction036 in advapi32), which Wine has.
 * .ci/cross builds it with MinGW-w64 and puts it on WINEPATH; it is never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
