//! CPU time of one thread or of the whole process. On a small machine shared with writers,
//! decoders and the server, wall-clock time includes the time spent waiting for a core.

/// CPU time the calling thread has used, in ns (0 if the clock cannot be read).
pub fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time every thread of this process has used, in ns (0 if the clock cannot be read):
/// what a client under test costs while nothing else in the process works.
pub fn process_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time the kernel has spent on this process's behalf, in ns (0 if it cannot be read):
/// page faults of a growing heap, system calls.
pub fn process_system_cpu_ns() -> u64 {
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable rusage; the call only writes it.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    u64::try_from(usage.ru_stime.tv_sec).unwrap_or_default() * 1_000_000_000
        + u64::try_from(usage.ru_stime.tv_usec).unwrap_or_default() * 1_000
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc != 0 {
        return 0;
    }
    u64::try_from(ts.tv_sec).unwrap_or_default() * 1_000_000_000
        + u64::try_from(ts.tv_nsec).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_clock_moves_with_work() {
        let start = super::thread_cpu_ns();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(super::thread_cpu_ns() > start, "{x}");
    }

    #[test]
    fn the_kernel_clock_moves_with_kernel_work() {
        use std::io::Read;
        let start = super::process_system_cpu_ns();
        // The kernel fills each read from /dev/zero: its time, not ours. A small buffer, as
        // the allocation test beside this one counts the whole process's heap.
        let mut zero = std::fs::File::open("/dev/zero").unwrap();
        let mut buf = vec![1u8; 1 << 20];
        for _ in 0..8192 {
            zero.read_exact(&mut buf).unwrap();
            if super::process_system_cpu_ns() > start {
                return;
            }
        }
        panic!("no kernel time after reading 8 GB from /dev/zero");
    }
}
