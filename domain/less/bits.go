package less

import "math/bits"

func trailingZeros(b Bitboard) int { return bits.TrailingZeros64(uint64(b)) }
func onesCount(b Bitboard) int     { return bits.OnesCount64(uint64(b)) }
