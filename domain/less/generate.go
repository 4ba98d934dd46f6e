package less

import (
	"fmt"

	"github.com/lesspost/lesspost/domain/less/tiles"
)

// GenerateBoard lays a board of the given size from the tile set with a
// seed (B5). The same seed always gives the same board.
func GenerateBoard(size int, seed uint64) (*Board, error) {
	walls, err := tiles.Walls(size, seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBoard, err)
	}
	return ParseBoard(size, walls)
}
