package notify

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/crc32"
	"image/color"
	"math/bits"
	"slices"
	"sync"
)

// The board pictures' PNG writer. image/png with compress/flate spent more
// time than the drawing: it hashes every byte looking for matches anywhere in
// a 32 kB window. A board picture is flat colour with anti-aliased edges, so
// nearly every byte repeats the byte before it (a run along a row), the byte
// one period to the left (the next square or point of a row) or the byte
// above it (rows that continue the row before): those distances are all this
// writer looks at, each compared 8 or more bytes at a time. It writes a plain
// PNG (8-bit palette, no interlace, filter None, one IDAT of one deflate
// block with Huffman codes made for the picture) that any decoder reads.

// pngRaw is the size of the data PNG compresses for a picture of w x h
// pixels: each row is a filter byte (0, None) then the row's palette
// indices. The canvas is laid out this way (see newCanvas), so the encoder
// reads the pixels where they were drawn.
func pngRaw(w, h int) int { return (w + 1) * h }

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// encodePNG appends to dst the PNG of a picture of w x h pixels with 8-bit
// palette indices, raw as pngRaw describes it, and colours palette (at most
// 256; not premultiplied, as PNG stores them, which for the boards' opaque
// colours is the same), its matches at distances dists (see
// deflater.tokenize).
func encodePNG(dst []byte, raw []byte, w, h int, palette []color.RGBA, dists []int) []byte {
	dst = append(dst, pngSignature...)

	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3 (palette); compression, filter and interlace 0
	dst = appendChunk(dst, "IHDR", ihdr[:])

	start := startChunk(&dst, "PLTE")
	opaque := true
	for _, c := range palette {
		dst = append(dst, c.R, c.G, c.B)
		opaque = opaque && c.A == 0xff
	}
	dst = endChunk(dst, start)
	if !opaque {
		start := startChunk(&dst, "tRNS")
		for _, c := range palette {
			dst = append(dst, c.A)
		}
		dst = endChunk(dst, start)
	}

	start = startChunk(&dst, "IDAT")
	dst = append(dst, 0x78, 0x01) // zlib: deflate, 32 kB window, fastest level
	z := deflaters.Get().(*deflater)
	z.tokenize(raw, dists)
	dst = z.write(dst)
	dst = binary.BigEndian.AppendUint32(dst, z.adler(raw))
	deflaters.Put(z)
	dst = endChunk(dst, start)

	return appendChunk(dst, "IEND", nil)
}

func appendChunk(dst []byte, typ string, data []byte) []byte {
	start := startChunk(&dst, typ)
	return endChunk(append(dst, data...), start)
}

// startChunk appends a chunk's length (filled in by endChunk) and type, and
// returns where the chunk starts.
func startChunk(dst *[]byte, typ string) int {
	start := len(*dst)
	*dst = append(*dst, 0, 0, 0, 0)
	*dst = append(*dst, typ...)
	return start
}

// endChunk fills in the length of the chunk started at start and appends its CRC.
func endChunk(dst []byte, start int) []byte {
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-8))
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start+4:]))
}

// Deflate (RFC 1951), with a few match distances and one block of
// Huffman codes made for the picture.
const (
	minMatch   = 3
	maxMatch   = 258
	numLitLen  = 286 // symbols: bytes, end of block (256), lengths (257..285)
	endOfBlock = 256
	numDist    = 30
	maxDists   = 4 // distances a picture's matches use, see deflater.tokenize
)

// A deflater turns a picture's rows into deflate's symbols and writes them;
// deflaters keeps them for reuse, with their token buffers.
type deflater struct {
	// toks are the symbols: a byte (< 256), or a match of length toks>>8
	// at distance dists[toks&0xff].
	toks     []uint32
	dists    [maxDists]int
	litFreq  [numLitLen]uint32
	distFreq [numDist]uint32

	// For the Adler-32 checksum (see adler): the row length, and by row the
	// sums of δ[c] and c·δ[c] over its columns c, δ being how much a byte
	// exceeds the one above it (in the first row, the byte itself).
	stride int
	delta  [][2]int64
}

var deflaters = sync.Pool{New: func() any { return new(deflater) }}

// tokenize finds raw's matches at distances dists (at most maxDists,
// cheapest to write first, the last the row above): the match with the row
// above where it is at least maxMatch long, else the longest (up to
// maxMatch, on a tie the cheapest), else a literal. How far each distance
// matches is found once, comparing 8 bytes at a time, and used until that
// match ends; the others are looked at only where the row above differs. So
// raw is read about once, however long the matches.
func (z *deflater) tokenize(raw []byte, dists []int) {
	z.toks = z.toks[:0]
	z.litFreq, z.distFreq = [numLitLen]uint32{}, [numDist]uint32{}
	stride, rows := dists[len(dists)-1], len(raw)/dists[len(dists)-1]
	z.stride, z.delta = stride, slices.Grow(z.delta[:0], rows)[:rows]
	clear(z.delta)
	var ms [maxDists]matcher
	var dsym [maxDists]int
	for k, d := range dists {
		z.dists[k], ms[k], dsym[k] = d, matcher{d, -1}, distSymbol(d)
	}
	m := ms[:len(dists)]
	up := len(dists) - 1
	y, rowStart := 0, 0 // p's row, and where it starts
	for p := 0; p < len(raw); {
		for p >= rowStart+stride {
			y, rowStart = y+1, rowStart+stride
		}
		// Stretches of literals (the edges of shapes), where not even a
		// byte matches at any distance, are taken in a tight loop.
	literals:
		for ; p >= stride && p < len(raw); p++ {
			x := raw[p]
			for _, d := range dists {
				if x == raw[p-d] {
					break literals
				}
			}
			if p >= rowStart+stride {
				y, rowStart = y+1, rowStart+stride
			}
			z.literal(raw, p, y, rowStart)
		}
		if p >= len(raw) {
			break
		}
		for p >= rowStart+stride {
			y, rowStart = y+1, rowStart+stride
		}
		best, bk := m[up].length(raw, p), up
		if best < maxMatch {
			for k := range m[:up] {
				if n := min(m[k].length(raw, p), maxMatch); n >= best {
					best, bk = n, k
				}
			}
		}
		if best < minMatch {
			z.literal(raw, p, y, rowStart)
			p++
			continue
		}
		if bk != up {
			z.addDelta(raw, y, p-rowStart, m[bk].end-p)
		}
		// Take the whole match, in pieces of at most maxMatch, none shorter than minMatch.
		for n := m[bk].end - p; n >= minMatch; {
			l := min(n, maxMatch)
			if r := n - l; r > 0 && r < minMatch {
				l = n - minMatch
			}
			z.toks = append(z.toks, uint32(l)<<8|uint32(bk))
			z.litFreq[lengthCodes[l].sym]++
			z.distFreq[dsym[bk]]++
			n -= l
			p += l
		}
	}
	z.litFreq[endOfBlock]++
}

// literal takes raw[p], in row y from rowStart, as a literal.
func (z *deflater) literal(raw []byte, p, y, rowStart int) {
	x := raw[p]
	z.toks = append(z.toks, uint32(x))
	z.litFreq[x]++
	d := int64(x)
	if y > 0 {
		d -= int64(raw[p-z.stride])
	}
	z.delta[y][0] += d
	z.delta[y][1] += int64(p-rowStart) * d
}

// A matcher finds how far raw matches at distance d.
type matcher struct {
	d   int
	end int // raw[end] is the first byte from the last look that differs at d
}

// length is how far raw matches at m.d from p (negative for not at all),
// looked for again only past the end of the last match.
func (m *matcher) length(raw []byte, p int) int {
	if p > m.end {
		if p >= m.d && raw[p] == raw[p-m.d] {
			m.look(raw, p)
		} else {
			m.end = p // often, where there are literals
		}
	}
	return m.end - p
}

// look finds the end of the match at p.
func (m *matcher) look(raw []byte, p int) {
	if p+8 <= len(raw) { // most matches end within 8 bytes
		if x := binary.LittleEndian.Uint64(raw[p:]) ^ binary.LittleEndian.Uint64(raw[p-m.d:]); x != 0 {
			m.end = p + bits.TrailingZeros64(x)/8
			return
		}
		p += 8
	}
	m.end = p + matchLen(raw[p:], raw[p-m.d:])
}

// matchLen is how many bytes of a from the first equal b's, b being at
// least as long: 32 bytes at a time (one branch for four words), and past
// the first 128 in blocks that bytes.Equal compares far faster.
func matchLen(a, b []byte) int {
	const block = 256
	n := 0
	for n+32 <= len(a) {
		if n == 128 {
			for n+block <= len(a) && bytes.Equal(a[n:n+block], b[n:n+block]) {
				n += block
			}
			if n+32 > len(a) {
				break
			}
		}
		x, y := a[n:n+32], b[n:n+32]
		le := binary.LittleEndian
		if (le.Uint64(x)^le.Uint64(y))|(le.Uint64(x[8:])^le.Uint64(y[8:]))|
			(le.Uint64(x[16:])^le.Uint64(y[16:]))|(le.Uint64(x[24:])^le.Uint64(y[24:])) != 0 {
			break
		}
		n += 32
	}
	for ; n+8 <= len(a); n += 8 {
		if x := binary.LittleEndian.Uint64(a[n:]) ^ binary.LittleEndian.Uint64(b[n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
	}
	for ; n < len(a) && a[n] == b[n]; n++ {
	}
	return n
}

// write appends the tokens as one final deflate block with dynamic Huffman
// codes (RFC 1951 3.2.7).
func (z *deflater) write(dst []byte) []byte {
	var litLen [numLitLen]uint8
	var distLen [numDist]uint8
	huffLengths(z.litFreq[:], 15, litLen[:])
	huffLengths(z.distFreq[:], 15, distLen[:])
	var litCode [numLitLen]huffCode
	var distCode [numDist]huffCode
	huffCodes(litLen[:], litCode[:])
	huffCodes(distLen[:], distCode[:])

	w := bitWriter{out: dst}
	w.write(1|2<<1, 3) // the final block, dynamic codes
	writeCodeLengths(&w, litLen[:], distLen[:])

	// A match's distance with its extra bits, by dists' index.
	var dists [maxDists]huffCode
	for k, d := range z.dists {
		if d > 0 {
			sym := distSymbol(d)
			c := distCode[sym]
			dists[k] = huffCode{c.bits | uint32(d-distBase[sym])<<c.n, c.n + distExtra[sym]}
		}
	}
	for _, t := range z.toks {
		if t < 256 {
			c := litCode[t]
			w.write(c.bits, c.n)
			continue
		}
		l := lengthCodes[t>>8]
		c := litCode[l.sym]
		w.write(c.bits|uint32(l.extra)<<c.n, c.n+l.extraBits) // at most 15 + 5 bits
		d := dists[t&0xff]
		w.write(d.bits, d.n) // at most 15 + 13 bits
	}
	c := litCode[endOfBlock]
	w.write(c.bits, c.n)
	return w.flush()
}

// writeCodeLengths writes the code lengths of a dynamic block's two codes,
// run-length encoded, and the code of that encoding before them.
func writeCodeLengths(w *bitWriter, litLen, distLen []uint8) {
	hlit := len(litLen)
	for hlit > 257 && litLen[hlit-1] == 0 {
		hlit--
	}
	hdist := len(distLen)
	for hdist > 1 && distLen[hdist-1] == 0 {
		hdist--
	}
	all := make([]uint8, 0, numLitLen+numDist)
	all = append(append(all, litLen[:hlit]...), distLen[:hdist]...)

	// The run-length encoding: symbols 0..15 are lengths, 16 repeats the
	// last 3-6 times, 17 and 18 write 3-10 and 11-138 zeros.
	type rle struct{ sym, extra uint8 }
	var syms []rle
	var freq [19]uint32
	emit := func(sym, extra uint8) {
		syms = append(syms, rle{sym, extra})
		freq[sym]++
	}
	for i := 0; i < len(all); {
		l, run := all[i], 1
		for i+run < len(all) && all[i+run] == l {
			run++
		}
		i += run
		if l == 0 {
			for ; run >= 11; run -= min(run, 138) {
				emit(18, uint8(min(run, 138)-11))
			}
			if run >= 3 {
				emit(17, uint8(run-3))
				run = 0
			}
		} else {
			emit(l, 0)
			run--
			for ; run >= 3; run -= min(run, 6) {
				emit(16, uint8(min(run, 6)-3))
			}
		}
		for ; run > 0; run-- {
			emit(l, 0)
		}
	}
	var clLen [19]uint8
	var clCode [19]huffCode
	huffLengths(freq[:], 7, clLen[:])
	huffCodes(clLen[:], clCode[:])
	order := [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	hclen := len(order)
	for hclen > 4 && clLen[order[hclen-1]] == 0 {
		hclen--
	}
	w.write(uint32(hlit-257), 5)
	w.write(uint32(hdist-1), 5)
	w.write(uint32(hclen-4), 4)
	for _, s := range order[:hclen] {
		w.write(uint32(clLen[s]), 3)
	}
	extraBits := [19]uint8{16: 2, 17: 3, 18: 7}
	for _, s := range syms {
		c := clCode[s.sym]
		w.write(c.bits|uint32(s.extra)<<c.n, c.n+extraBits[s.sym])
	}
}

// huffLengths sets lengths[s] to the length of symbol s's code in a Huffman
// code for freqs (0 for an unused symbol), at most maxBits: where the best
// code is longer, the frequencies are flattened until it fits. A code has
// at least two symbols, so that any decoder takes it.
func huffLengths(freqs []uint32, maxBits int, lengths []uint8) {
	var f [numLitLen]uint32
	copy(f[:], freqs)
	used := 0
	for _, n := range freqs {
		if n > 0 {
			used++
		}
	}
	for s := 0; used < 2; s++ {
		if f[s] == 0 {
			f[s] = 1
			used++
		}
	}
	for !huffBuild(f[:len(freqs)], maxBits, lengths) {
		for s, n := range f {
			if n > 0 {
				f[s] = n/2 + 1
			}
		}
	}
}

// huffBuild sets lengths to a Huffman code's for freqs, and reports whether
// none is longer than maxBits. Ties go to the lower symbol, so the code
// depends only on freqs.
func huffBuild(freqs []uint32, maxBits int, lengths []uint8) bool {
	// Leaves, by frequency; then the two-queue construction: internal
	// nodes are made in order of weight, so the two lightest nodes are
	// always at the fronts of the two queues.
	var leaves [numLitLen]uint16
	n := 0
	for s, f := range freqs {
		lengths[s] = 0
		if f > 0 {
			leaves[n] = uint16(s)
			n++
		}
	}
	slices.SortFunc(leaves[:n], func(a, b uint16) int {
		if fa, fb := freqs[a], freqs[b]; fa != fb {
			return cmp.Compare(fa, fb)
		}
		return cmp.Compare(a, b)
	})
	var weight [numLitLen]uint64     // of internal node i
	var parent [2 * numLitLen]uint16 // of leaf i (by rank), then of internal node i at n+i
	li, ni := 0, 0                   // the fronts of the two queues
	for made := 0; made < n-1; made++ {
		var w uint64
		for range 2 {
			if li < n && (ni >= made || uint64(freqs[leaves[li]]) <= weight[ni]) {
				w += uint64(freqs[leaves[li]])
				parent[li] = uint16(made)
				li++
			} else {
				w += weight[ni]
				parent[n+ni] = uint16(made)
				ni++
			}
		}
		weight[made] = w
	}
	// Depths: the root, made last, is at 0; every node is made after its children.
	var depth [numLitLen]uint8
	for i := n - 3; i >= 0; i-- {
		depth[i] = depth[parent[n+i]] + 1
	}
	ok := true
	for i := range n {
		d := depth[parent[i]] + 1
		lengths[leaves[i]] = d
		ok = ok && int(d) <= maxBits
	}
	return ok
}

// huffCodes gives the symbols the canonical codes of their lengths (RFC
// 1951 3.2.2), reversed for writing.
func huffCodes(lengths []uint8, codes []huffCode) {
	var count, next [16]uint32
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	code := uint32(0)
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	for s, l := range lengths {
		if l > 0 {
			codes[s] = huffCode{uint32(bits.Reverse16(uint16(next[l]))) >> (16 - l), l}
			next[l]++
		}
	}
}

// A huffCode is bits to write, first bit lowest, and how many.
type huffCode struct {
	bits uint32
	n    uint8
}

// lengthCodes are the symbols of the match lengths with their extra bits.
var lengthCodes = func() (t [maxMatch + 1]struct {
	sym       uint16
	extra     uint16
	extraBits uint8
}) {
	sym, base := 257, 3
	for _, extra := range []uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5} {
		for k := range 1 << extra {
			if l := base + k; l < maxMatch { // 258 has a symbol of its own
				t[l].sym, t[l].extra, t[l].extraBits = uint16(sym), uint16(k), extra
			}
		}
		sym, base = sym+1, base+1<<extra
	}
	t[maxMatch].sym = 285
	return t
}()

// distBase and distExtra are the first distance of each distance symbol
// and its number of extra bits.
var distBase, distExtra = func() (base [numDist]int, extra [numDist]uint8) {
	b := 1
	for s := range numDist {
		if s >= 4 {
			extra[s] = uint8(s/2 - 1)
		}
		base[s] = b
		b += 1 << extra[s]
	}
	return base, extra
}()

// distSymbol is the symbol of distance d (1..32768).
func distSymbol(d int) int {
	s := 0
	for s+1 < numDist && distBase[s+1] <= d {
		s++
	}
	return s
}

// bitWriter appends bits to a byte slice, lowest first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

// write appends the n (at most 32) low bits of b.
func (w *bitWriter) write(b uint32, n uint8) {
	w.acc |= uint64(b) << w.nacc
	w.nacc += uint(n)
	if w.nacc >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

// flush writes the bits left, padding the last byte with zeros.
func (w *bitWriter) flush() []byte {
	for w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= min(w.nacc, 8)
	}
	return w.out
}

// addDelta adds to z.delta the l bytes of raw from row y, column c, which need not be
// equal to those above them; where a match with the row above was taken, δ
// is 0 and nothing is added. So the checksum costs only a little work where
// rows differ, much as the matches do.
func (z *deflater) addDelta(raw []byte, y, c, l int) {
	n := z.stride
	for ; l > 0; y, c = y+1, 0 {
		from := y*n + c
		e := from + min(l, n-c)
		var above []byte
		if y > 0 {
			above = raw[from-n : e-n]
		}
		d0, d1 := deltaSums(raw[from:e], above)
		z.delta[y][0] += d0
		z.delta[y][1] += d1 + int64(c)*d0
		l -= e - from
	}
}

// deltaSums is the sum of row[i]-above[i] and of i·(row[i]-above[i]), above
// being nil for zeros.
func deltaSums(row, above []byte) (d0, d1 int64) {
	// 8 bytes at a time, where they differ: the bytes at even and odd
	// places as 16-bit lanes, whose sum, and sum weighted 8, 7, …, 1, one
	// multiplication gathers in the top lane (no lane exceeds 16 bits on the
	// way). Σ k·x[k] over 8 bytes is 8·sum - weighted.
	const (
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
		even  = 2 | 4<<16 | 6<<32 | 8<<48 // weights of bytes 6, 4, 2, 0
		odd   = 1 | 3<<16 | 5<<32 | 7<<48 // of bytes 7, 5, 3, 1
	)
	sums := func(v uint64) (sum, ksum int64) {
		lo, hi := v&lanes, v>>8&lanes
		s, w := int64((lo+hi)*ones>>48), int64((lo*even+hi*odd)>>48)
		return s, 8*s - w
	}
	i := 0
	for ; i+8 <= len(row); i += 8 {
		v := binary.LittleEndian.Uint64(row[i:])
		var u uint64
		if above != nil {
			if u = binary.LittleEndian.Uint64(above[i:]); u == v {
				continue
			}
		}
		sv, kv := sums(v)
		su, ku := sums(u)
		d0 += sv - su
		d1 += int64(i)*(sv-su) + kv - ku
	}
	for ; i < len(row); i++ {
		d := int64(row[i])
		if above != nil {
			d -= int64(above[i])
		}
		d0 += d
		d1 += int64(i) * d
	}
	return d0, d1
}

// adlerMod is Adler-32's modulus.
const adlerMod = 65521

// adler is the Adler-32 checksum of raw, which zlib ends with, from the
// sums tokenize gathered: a row's sums are the row above's plus its δ's.
// Over a stream of L bytes x[i], Adler-32's sums are 1 + Σ x[i] and
// L + Σ (L-i)·x[i], modulo adlerMod.
func (z *deflater) adler(raw []byte) uint32 {
	var r0, r1 int64 // the row's Σ x[c] and Σ c·x[c], exact
	var t0, t1 int64 // Σ x[i] and Σ i·x[i] over the rows so far, modulo adlerMod
	for y, d := range z.delta {
		r0 += d[0]
		r1 += d[1]
		t0 = (t0 + r0) % adlerMod
		t1 = (t1 + int64(y*z.stride%adlerMod)*(r0%adlerMod) + r1) % adlerMod
	}
	l := int64(len(raw) % adlerMod)
	a := (1 + t0) % adlerMod
	b := ((l+l*t0-t1)%adlerMod + adlerMod) % adlerMod
	return uint32(b<<16 | a)
}
