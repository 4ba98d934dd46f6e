//go:build unix

package sqlite

import "syscall"

// freeBytes is the space an unprivileged process may still use on the file
// system of dir; known is false if the system does not say.
func freeBytes(dir string) (free int64, known bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
