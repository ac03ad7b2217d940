package mcp

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// HTTPPath is where the Streamable HTTP endpoint is served.
const HTTPPath = "/mcp"

// ListenLoopback listens on addr (host:port), which must name a loopback
// address: the endpoint has no TLS, and a token in clear text must not
// cross a network.
func ListenLoopback(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeUsage, "--http %q is not host:port (e.g. 127.0.0.1:8765)", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return nil, contracts.Errorf(contracts.CodeUsage, "--http %q: the port must be a number from 0 to 65535", addr)
	}
	ip := net.ParseIP(host)
	if host == "localhost" {
		ip = net.IPv4(127, 0, 0, 1)
	}
	if ip == nil || !ip.IsLoopback() {
		return nil, contracts.Errorf(contracts.CodeUsage, "--http %q: the server listens on a loopback address only (127.0.0.1 or ::1); there is no TLS", addr)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), port))
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot listen on %s: %v", addr, err)
	}
	return ln, nil
}

// ServeHTTP serves the same tools over MCP's Streamable HTTP transport on
// ln until ctx is cancelled. Every request must carry the bearer token,
// name this server's own address as its Host and, when it has an Origin,
// come from that address too (DNS rebinding: a web page's script reaching
// 127.0.0.1 through a name it controls is refused with 403).
func ServeHTTP(ctx context.Context, env operations.Env, version string, ln net.Listener, token string) error {
	env, closeCache := withResolveCache(env)
	defer closeCache()
	srv, err := New(env, version)
	if err != nil {
		return err
	}
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		SessionTimeout: 30 * time.Minute,
	})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, guard(handler, ln.Addr().(*net.TCPAddr).Port, token))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// guard refuses a request whose Host or Origin is not this server's
// loopback address (403) or that lacks the bearer token (401).
func guard(next http.Handler, port int, token string) http.Handler {
	var hosts, origins []string
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		hp := fmt.Sprintf("%s:%d", h, port)
		hosts = append(hosts, hp)
		origins = append(origins, "http://"+hp)
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(hosts, r.Host) {
			http.Error(w, "forbidden: the Host is not this server's loopback address", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !slices.Contains(origins, o) {
			http.Error(w, "forbidden: requests from other origins are refused", http.StatusForbidden)
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="git-context-tree"`)
			http.Error(w, "unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
