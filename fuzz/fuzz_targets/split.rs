//! How the decoder targets cut one input into chunks: a response body reaches the decoders in
//! pieces of any size, and every state of a splitter must survive a cut.

/// One way of feeding an input: its chunks, and the batch size (bytes of list items, or watch
/// events decoded inline) the decoders are driven with.
pub struct Feed<'a> {
    /// What this feed is, for assertion messages.
    pub name: &'static str,
    /// The input, cut.
    pub chunks: Vec<&'a [u8]>,
    /// The list decoder's batch size in bytes; the watch decoder's inline batch size in events.
    pub batch: usize,
}

/// The input whole with large batches (as the client reads a small body); one byte at a time,
/// every list item and every watch line its own batch; and in chunks of 1 to 64 bytes drawn
/// from a generator seeded with the input's hash (so that each mutation moves the cuts) with a
/// batch size drawn alike.
pub fn feeds(data: &[u8]) -> [Feed<'_>; 3] {
    let mut rng = SplitMix(fnv1a(data));
    let mut chunks = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let len = (1 + rng.below(64)).min(rest.len());
        let (chunk, tail) = rest.split_at(len);
        chunks.push(chunk);
        rest = tail;
    }
    [
        Feed {
            name: "whole",
            chunks: vec![data],
            batch: 256 * 1024,
        },
        Feed {
            name: "byte by byte",
            chunks: data.chunks(1).collect(),
            batch: 1,
        },
        Feed {
            name: "in hashed chunks",
            chunks,
            batch: 1 + rng.below(4096),
        },
    ]
}

/// The 64-bit FNV-1a hash: what an input draws its cuts and limits from.
pub fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The SplitMix64 generator: tiny, and good enough to scatter cuts.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
