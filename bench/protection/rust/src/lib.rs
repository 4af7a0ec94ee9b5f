//! The services of TR-96-20 (nullc, md5, nsieve, tdbm) in safe Rust: the
//! protection bench's safe-language scheme, standing where the paper had
//! Modula-3.  It answers the same requests as services.c, through the same
//! C struct, and must compute the same results (the tests compare them).
//!
//! The only unsafe code is at the C boundary (`rs_svc_*`): turning the
//! caller's pointers into slices (a NULL with a length is refused there) and
//! the state's box.  Everything behind it is safe Rust, every index
//! bounds-checked and, in this crate's release profile, every addition
//! overflow-checked.  A panic (an index out of bounds) is caught at the
//! boundary and returned as SVC_EFAULT: what the language buys the caller.
//!
//! Unlike the C services, which live in an arena the caller hands in, the
//! Rust state is Rust's own (a Box of Vecs), allocated when a benchmark
//! starts (md5's and nsieve's first call, tdbm's reset) and never during
//! its calls.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

const SVC_NULLC: u32 = 1;
const SVC_MD5: u32 = 2;
const SVC_NSIEVE: u32 = 3;
const SVC_TDBM_RESET: u32 = 4;
const SVC_TDBM_INSERT: u32 = 5;
const SVC_TDBM_FETCH: u32 = 6;
const SVC_TDBM_DELETE: u32 = 7;
const SVC_TDBM_SUM: u32 = 8;
const SVC_FAULT: u32 = 9;

const SVC_FIRST: u32 = 1;
const SVC_LAST: u32 = 2;
const SVC_INOUT: u32 = 4;

const SVC_EINVAL: i64 = -22;
const SVC_ENOENT: i64 = -2;
const SVC_ENOSPC: i64 = -28;
const SVC_EFAULT: i64 = -14;

const TDBM_KEY_MAX: usize = 51;
const TDBM_FIRST_BUCKETS: u32 = 16;

/// services.h's struct svc_req, field for field.
#[repr(C)]
pub struct SvcReq {
    op: u32,
    flags: u32,
    arg: u64,
    arg2: u64,
    input: *const u8,
    in_len: u64,
    out: *mut u8,
    out_len: u64,
}

/// A request as safe code sees it.  For SVC_INOUT the block is `out` and
/// `input` is empty: the two may not alias in Rust.
struct Call<'a> {
    op: u32,
    flags: u32,
    arg: u64,
    arg2: u64,
    input: &'a [u8],
    in_len: usize,
    out: &'a mut [u8],
    out_len: usize,
}

// ---- md5 (RFC 1321) ----

const MD5_T: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

const MD5_S: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

struct Md5 {
    h: [u32; 4],
    bytes: u64,
    block: [u8; 64],
    held: usize,
}

fn md5_compress(h: &mut [u32; 4], p: &[u8]) {
    let mut m = [0u32; 16];
    for (i, word) in m.iter_mut().enumerate() {
        *word = u32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]]);
    }
    let (mut a, mut b, mut c, mut d) = (h[0], h[1], h[2], h[3]);
    for i in 0..64 {
        let (f, g) = match i >> 4 {
            0 => ((b & c) | (!b & d), i),
            1 => ((b & d) | (c & !d), (5 * i + 1) & 15),
            2 => (b ^ c ^ d, (3 * i + 5) & 15),
            _ => (c ^ (b | !d), (7 * i) & 15),
        };
        let t = d;
        d = c;
        c = b;
        let sum = a.wrapping_add(f).wrapping_add(MD5_T[i]).wrapping_add(m[g]);
        b = b.wrapping_add(sum.rotate_left(MD5_S[(i >> 4) * 4 + (i & 3)]));
        a = t;
    }
    for (x, y) in h.iter_mut().zip([a, b, c, d]) {
        *x = x.wrapping_add(y);
    }
}

impl Md5 {
    fn new() -> Md5 {
        Md5 { h: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476], bytes: 0, block: [0; 64], held: 0 }
    }

    fn absorb(&mut self, mut p: &[u8]) {
        self.bytes = self.bytes.wrapping_add(p.len() as u64);
        while !p.is_empty() {
            if self.held == 0 && p.len() >= 64 {
                md5_compress(&mut self.h, &p[..64]);
                p = &p[64..];
                continue;
            }
            let n = (64 - self.held).min(p.len());
            self.block[self.held..self.held + n].copy_from_slice(&p[..n]);
            self.held += n;
            p = &p[n..];
            if self.held == 64 {
                let block = self.block;
                md5_compress(&mut self.h, &block);
                self.held = 0;
            }
        }
    }

    fn finish(&mut self) -> [u8; 16] {
        let bits = self.bytes.wrapping_mul(8);
        self.absorb(&[0x80]);
        while self.held != 56 {
            self.absorb(&[0]);
        }
        self.absorb(&bits.to_le_bytes());
        let mut digest = [0u8; 16];
        for (i, byte) in digest.iter_mut().enumerate() {
            *byte = (self.h[i / 4] >> (8 * (i % 4))) as u8;
        }
        digest
    }
}

// ---- nsieve: flags[i] stands for the odd number 2i + 3 ----

fn sieve(flags: &mut Vec<u8>, c: &Call) -> i64 {
    let mut lo = c.arg as usize;
    if c.flags & SVC_FIRST != 0 {
        let n = if c.arg < 3 { 0 } else { ((c.arg - 1) / 2) as usize };
        flags.clear();
        flags.resize(n, 1);
        lo = 0;
    }
    let n = flags.len();
    let end = lo.saturating_add(c.arg2 as usize).min(n);
    let mut found = 0;
    for i in lo..end {
        if flags[i] == 0 {
            continue;
        }
        let prime = 2 * i + 3;
        let mut k = i + prime;
        while k < n {
            flags[k] = 0;
            k += prime;
        }
        found += 1;
    }
    found
}

// ---- tdbm: linear hashing, as services.c has it ----

#[derive(Clone, Copy)]
struct Rec {
    next: u32,
    hash: u32,
    value: u32,
    klen: u8,
    key: [u8; TDBM_KEY_MAX],
}

#[derive(Clone, Copy)]
enum Link {
    Bucket(usize),
    Rec(u32),
}

struct Tdbm {
    cap: usize,
    buckets: Vec<u32>,
    recs: Vec<Rec>,
    count: u32,
    low: u32,
    split: u32,
    free_head: u32,
}

fn fnv1a(p: &[u8]) -> u32 {
    p.iter().fold(2166136261u32, |h, &b| (h ^ b as u32).wrapping_mul(16777619))
}

impl Tdbm {
    fn new() -> Tdbm {
        Tdbm { cap: 0, buckets: Vec::new(), recs: Vec::new(), count: 0, low: TDBM_FIRST_BUCKETS, split: 0, free_head: 0 }
    }

    fn reset(&mut self, cap: usize) {
        let mut buckets = TDBM_FIRST_BUCKETS as usize;
        while buckets < cap {
            buckets *= 2;
        }
        self.cap = cap;
        self.buckets.clear();
        self.buckets.resize(buckets, 0);
        self.recs.clear();
        self.recs.reserve(cap);
        self.count = 0;
        self.low = TDBM_FIRST_BUCKETS;
        self.split = 0;
        self.free_head = 0;
    }

    fn rec(&self, r: u32) -> &Rec {
        &self.recs[(r - 1) as usize]
    }

    fn addr(&self, hash: u32) -> usize {
        let b = hash & (self.low - 1);
        (if b < self.split { hash & (2 * self.low - 1) } else { b }) as usize
    }

    /// the link that points at the key's record, and that record (0: none)
    fn find(&self, key: &[u8], hash: u32) -> (Link, u32) {
        let b = self.addr(hash);
        let mut link = Link::Bucket(b);
        let mut r = self.buckets[b];
        while r != 0 {
            let rec = self.rec(r);
            if rec.hash == hash && &rec.key[..rec.klen as usize] == key {
                return (link, r);
            }
            link = Link::Rec(r);
            r = rec.next;
        }
        (link, 0)
    }

    fn set_link(&mut self, link: Link, to: u32) {
        match link {
            Link::Bucket(b) => self.buckets[b] = to,
            Link::Rec(r) => self.recs[(r - 1) as usize].next = to,
        }
    }

    fn split_one(&mut self) {
        let (low, old) = (self.low as usize, self.split as usize);
        if low + old >= self.buckets.len() {
            return;
        }
        let mut r = self.buckets[old];
        self.buckets[old] = 0;
        self.buckets[old + low] = 0;
        while r != 0 {
            let rec = self.rec(r);
            let (next, to) = (rec.next, (rec.hash & (2 * self.low - 1)) as usize);
            self.recs[(r - 1) as usize].next = self.buckets[to];
            self.buckets[to] = r;
            r = next;
        }
        self.split += 1;
        if self.split == self.low {
            self.low *= 2;
            self.split = 0;
        }
    }

    fn insert(&mut self, key: &[u8], value: u32) -> i64 {
        let hash = fnv1a(key);
        let (link, found) = self.find(key, hash);
        if found != 0 {
            self.recs[(found - 1) as usize].value = value;
            return 1;
        }
        let mut rec = Rec { next: 0, hash, value, klen: key.len() as u8, key: [0; TDBM_KEY_MAX] };
        rec.key[..key.len()].copy_from_slice(key);
        let r = if self.free_head != 0 {
            let r = self.free_head;
            self.free_head = self.rec(r).next;
            self.recs[(r - 1) as usize] = rec;
            r
        } else if self.recs.len() < self.cap {
            self.recs.push(rec);
            self.recs.len() as u32
        } else {
            return SVC_ENOSPC;
        };
        self.set_link(link, r);
        self.count += 1;
        if self.count > 2 * (self.low + self.split) {
            self.split_one();
        }
        0
    }

    fn fetch(&self, key: &[u8]) -> i64 {
        match self.find(key, fnv1a(key)) {
            (_, 0) => SVC_ENOENT,
            (_, r) => self.rec(r).value as i64,
        }
    }

    fn delete(&mut self, key: &[u8]) -> i64 {
        let (link, r) = self.find(key, fnv1a(key));
        if r == 0 {
            return SVC_ENOENT;
        }
        let next = self.rec(r).next;
        self.set_link(link, next);
        self.recs[(r - 1) as usize].next = self.free_head;
        self.free_head = r;
        self.count -= 1;
        0
    }

    fn sum(&self) -> u64 {
        let mut sum = 0u64;
        for b in 0..(self.low + self.split) as usize {
            let mut r = self.buckets.get(b).copied().unwrap_or(0);
            while r != 0 {
                let rec = self.rec(r);
                sum = sum.wrapping_add(rec.hash as u64 * (rec.value as u64 + 1));
                r = rec.next;
            }
        }
        sum
    }
}

// ---- the service ----

pub struct State {
    md5: Md5,
    flags: Vec<u8>,
    db: Tdbm,
}

fn key_of<'a>(c: &Call<'a>) -> Option<&'a [u8]> {
    (1..=TDBM_KEY_MAX).contains(&c.input.len()).then_some(c.input)
}

fn serve(st: &mut State, c: &mut Call) -> i64 {
    c.out_len = 0;
    match c.op {
        SVC_NULLC => {
            let mut pages = 0;
            for off in (0..c.in_len).step_by(4096) {
                c.out[off] = c.out[off].wrapping_add(1);
                pages += 1;
            }
            c.out_len = c.in_len;
            pages
        }
        SVC_MD5 => {
            if c.flags & SVC_FIRST != 0 {
                st.md5 = Md5::new();
            }
            st.md5.absorb(c.input);
            if c.flags & SVC_LAST != 0 {
                c.out[..16].copy_from_slice(&st.md5.finish());
                c.out_len = 16;
            }
            0
        }
        SVC_NSIEVE => sieve(&mut st.flags, c),
        SVC_TDBM_RESET => {
            st.db.reset(c.arg as usize);
            0
        }
        SVC_TDBM_INSERT => match (key_of(c), u32::try_from(c.arg)) {
            (Some(key), Ok(value)) => st.db.insert(key, value),
            _ => SVC_EINVAL,
        },
        SVC_TDBM_FETCH => key_of(c).map_or(SVC_EINVAL, |key| st.db.fetch(key)),
        SVC_TDBM_DELETE => key_of(c).map_or(SVC_EINVAL, |key| st.db.delete(key)),
        SVC_TDBM_SUM => {
            c.out[..8].copy_from_slice(&st.db.sum().to_le_bytes());
            c.out_len = 8;
            st.db.count as i64
        }
        SVC_FAULT => {
            // the bug: an index past the end, which the language stops
            let table = [0u8; 4];
            let i = std::hint::black_box(4 + c.arg as usize);
            table[i] as i64
        }
        _ => SVC_EINVAL,
    }
}

// ---- the C boundary ----

static QUIET: Once = Once::new();

#[no_mangle]
pub extern "C" fn rs_svc_open(_state_len: u64) -> *mut State {
    // a caught panic is an error return, not a message on the caller's stderr
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    Box::into_raw(Box::new(State { md5: Md5::new(), flags: Vec::new(), db: Tdbm::new() }))
}

/// # Safety
/// `state` came from rs_svc_open and is not used after.
#[no_mangle]
pub unsafe extern "C" fn rs_svc_close(state: *mut State) {
    if !state.is_null() {
        drop(Box::from_raw(state));
    }
}

/// # Safety
/// `state` came from rs_svc_open; `req` is a valid struct svc_req whose
/// blocks, where not NULL, are valid for their lengths.
#[no_mangle]
pub unsafe extern "C" fn rs_svc_call(state: *mut State, req: *mut SvcReq) -> i64 {
    if state.is_null() || req.is_null() {
        return SVC_EINVAL;
    }
    let (st, r) = (&mut *state, &mut *req);
    let inout = r.flags & SVC_INOUT != 0;
    if (r.in_len > 0 && r.input.is_null()) || (r.out_len > 0 && r.out.is_null()) {
        return SVC_EINVAL;
    }
    if inout && (r.input != r.out as *const u8 || r.in_len > r.out_len) {
        return SVC_EINVAL;
    }
    let input: &[u8] = if inout || r.in_len == 0 { &[] } else { std::slice::from_raw_parts(r.input, r.in_len as usize) };
    let out: &mut [u8] = if r.out_len == 0 { &mut [] } else { std::slice::from_raw_parts_mut(r.out, r.out_len as usize) };
    let mut call = Call { op: r.op, flags: r.flags, arg: r.arg, arg2: r.arg2, input, in_len: r.in_len as usize, out, out_len: 0 };
    match catch_unwind(AssertUnwindSafe(|| serve(st, &mut call))) {
        Ok(result) => {
            r.out_len = call.out_len as u64;
            result
        }
        Err(_) => SVC_EFAULT,
    }
}
