package operations

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
)

// MCPTokenEnv is the variable the HTTP configurations `mcp config --http`
// writes read the bearer token from: the token itself is never written
// into a project's (shared) configuration.
const MCPTokenEnv = hostconfig.TokenEnv

// MCPHTTPToken is the bearer token of `mcp --http`: kept in the state
// directory (mcp/http-token, mode 0600, never through a symlink), made
// from 32 random bytes the first time (created true: the caller prints it
// once).
func MCPHTTPToken(env Env) (token, file string, created bool, err error) {
	dir, err := env.Home.Dir("mcp")
	if err != nil {
		return "", "", false, err
	}
	file = filepath.Join(dir, "http-token")
	data, err := env.Home.ReadFile(file)
	switch {
	case err == nil:
		if t := strings.TrimSpace(string(data)); len(t) >= 32 {
			return t, file, false, nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", "", false, err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", false, contracts.Errorf(contracts.CodeInternal, "cannot make a token: %v", err)
	}
	token = hex.EncodeToString(b)
	if err := env.Home.WriteFile(dir, "http-token", []byte(token+"\n")); err != nil {
		return "", "", false, err
	}
	return token, file, true, nil
}
