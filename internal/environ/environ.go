// Package environ is a command's environment as a value: the variables it
// was started with, given to cli.Main by the binary (os.Environ) or by a
// test running the product in-process. Nothing below cli reads the
// process's environment: every variable, the home directory and the
// programs found on PATH come from here, so commands run side by side in
// one process each see their own.
package environ

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Vars is an environment in os.Environ's form, NAME=value; when a name
// appears more than once the last one wins, as for a program started
// with it. A nil Vars is an empty environment.
type Vars []string

// Lookup is the value of a variable and whether it is set.
func (v Vars) Lookup(name string) (string, bool) {
	for i := len(v) - 1; i >= 0; i-- {
		if k, val, ok := strings.Cut(v[i], "="); ok && k == name {
			return val, true
		}
	}
	return "", false
}

// Get is the value of a variable, "" when unset (os.Getenv).
func (v Vars) Get(name string) string {
	val, _ := v.Lookup(name)
	return val
}

// List is the environment for a program started with it (exec.Cmd's
// Env, where the last of a name wins too): a copy the caller may append
// to, never nil (a nil Env would give the program the process's).
func (v Vars) List() []string {
	out := make([]string, len(v))
	copy(out, v)
	return out
}

// HomeDir is the user's home directory, $HOME, as os.UserHomeDir gives it
// on Linux and macOS.
func (v Vars) HomeDir() (string, error) {
	if home := v.Get("HOME"); home != "" {
		return home, nil
	}
	return "", errors.New("$HOME is not defined")
}

// LookPath finds an executable as exec.LookPath does, along this
// environment's PATH instead of the process's, and with a name that has a
// slash taken relative to dir (the command's directory) instead of the
// process's: the answer is an absolute path. A match in a relative PATH
// entry is refused (exec.ErrDot), as exec refuses it.
func (v Vars) LookPath(file, dir string) (string, error) {
	if strings.Contains(file, "/") {
		path := file
		if !filepath.IsAbs(path) {
			if !filepath.IsAbs(dir) {
				return "", &exec.Error{Name: file, Err: errors.New("a relative path, and no directory to start from")}
			}
			path = filepath.Join(dir, path)
		}
		if err := executable(path); err != nil {
			return "", &exec.Error{Name: file, Err: err}
		}
		return filepath.Clean(path), nil
	}
	for _, entry := range filepath.SplitList(v.Get("PATH")) {
		if entry == "" {
			entry = "." // an empty entry is the working directory (POSIX)
		}
		path := filepath.Join(entry, file)
		if !filepath.IsAbs(path) {
			if filepath.IsAbs(dir) && executable(filepath.Join(dir, path)) == nil {
				return path, &exec.Error{Name: file, Err: exec.ErrDot}
			}
			continue
		}
		if executable(path) == nil {
			return path, nil
		}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// executable reports why path is not an executable regular file, or nil.
func executable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if m := fi.Mode(); m.IsDir() || m&0o111 == 0 {
		return fmt.Errorf("%s: %w", path, fs.ErrPermission)
	}
	return nil
}

// TempDir is the directory for temporary files, $TMPDIR or /tmp, as
// os.TempDir gives it on Linux and macOS.
func (v Vars) TempDir() string {
	if dir := v.Get("TMPDIR"); dir != "" {
		return dir
	}
	return "/tmp"
}
