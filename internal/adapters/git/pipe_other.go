//go:build !linux

package git

import "io"

// enlargePipe does nothing where pipes cannot be resized.
func enlargePipe(io.Reader) {}
