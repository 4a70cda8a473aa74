/*
 * A stand-in for Windows' bcryptprimitives.dll, for running Betacut's Windows builds under
 * Wine 8 only. Never ship it, never put it beside betacut.exe for users.
 *
 * Rust's standard library (x86_64-pc-windows-gnu) draws its random seeds (HashMap keys) from
 * ProcessPrng in bcryptprimitives.dll, which Windows 10 and 11 have and Wine 8 does not, so
 * the exe does not start there. scripts/windows_check.sh builds this file with MinGW-w64 into
 * the system folder of a Wine prefix of its own. ProcessPrng is served by RtlGenRandom
 * (advapi32's SystemFunction036), which Wine has: the bytes are still random.
 */
#include <windows.h>

/* RtlGenRandom: exported by advapi32 under this name. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* Fills `data` with `length` random bytes; like Windows' own, it always reports success. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            /* Wine's RtlGenRandom does not fail; if it ever did, stop here rather than hand
               out bytes that are not random. */
            ExitProcess(3);
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
