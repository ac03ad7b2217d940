package skills

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Host names, as --host takes them.
const (
	HostClaude   = "claude"
	HostCodex    = "codex"
	HostCopilot  = "copilot"
	HostCursor   = "cursor"
	HostGemini   = "gemini"
	HostOpenCode = "opencode"
	HostPi       = "pi"
)

// Hosts lists every host the product knows, sorted.
var Hosts = []string{HostClaude, HostCodex, HostCopilot, HostCursor, HostGemini, HostOpenCode, HostPi}

// Environment is what host detection looks at: the home directory and the
// hosts' environment variables, a relative directory in one taken from
// Dir (the command's working directory).
type Environment struct {
	Home   string
	Getenv func(string) string
	Dir    string
}

func (e Environment) getenv(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// Detection says whether a host is present on this machine, judged only
// by its own configuration directory (which the product never creates).
type Detection struct {
	Host     string
	Detected bool
	// Dir is the directory whose presence detects the host.
	Dir string
	// Reason says why the host is not detected.
	Reason string
}

// configDir is where a host keeps its configuration: an environment
// variable's directory when set, else a directory below HOME.
func configDir(env Environment, host string) (dir, via string) {
	home := func(rel ...string) string { return filepath.Join(append([]string{env.Home}, rel...)...) }
	fromEnv := func(name string, fallback string) (string, string) {
		if v := env.getenv(name); v != "" {
			if !filepath.IsAbs(v) && filepath.IsAbs(env.Dir) {
				v = filepath.Join(env.Dir, v)
			}
			return v, "$" + name
		}
		return fallback, ""
	}
	switch host {
	case HostClaude:
		return fromEnv("CLAUDE_CONFIG_DIR", home(".claude"))
	case HostCodex:
		return fromEnv("CODEX_HOME", home(".codex"))
	case HostCopilot:
		return home(".copilot"), ""
	case HostCursor:
		return home(".cursor"), ""
	case HostGemini:
		return home(".gemini"), ""
	case HostOpenCode:
		if x, via := fromEnv("XDG_CONFIG_HOME", ""); x != "" {
			return filepath.Join(x, "opencode"), via
		}
		return home(".config", "opencode"), ""
	case HostPi:
		return fromEnv("PI_CODING_AGENT_DIR", home(".pi", "agent"))
	}
	return "", ""
}

// Detect reports whether host is present: its configuration directory
// exists (a symlink to a directory counts; whether it may be written
// through is decided when a path is checked).
func Detect(env Environment, host string) Detection {
	dir, via := configDir(env, host)
	d := Detection{Host: host, Dir: dir}
	name := dir
	if via != "" {
		name = via + " (" + dir + ")"
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.Reason = "not detected: " + name + " does not exist"
	case err != nil:
		d.Reason = "not detected: " + err.Error()
	case fi.IsDir():
		d.Detected = true
	case fi.Mode()&fs.ModeSymlink != 0:
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			d.Detected = true
		} else {
			d.Reason = "not detected: " + name + " is a symlink to no directory"
		}
	default:
		d.Reason = "not detected: " + name + " is not a directory"
	}
	return d
}
