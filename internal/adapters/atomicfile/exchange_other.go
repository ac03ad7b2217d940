//go:build !linux && !darwin

package atomicfile

func exchange(a, b string) error { return errExchangeUnsupported }
