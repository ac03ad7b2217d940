package operations

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestFromGitHubURL(t *testing.T) {
	for _, c := range []struct {
		in   ConnectRequest
		want ConnectRequest
	}{
		// The exact selector list prints, and the browser's address.
		{ConnectRequest{Target: "https://github.com/acme/handbook/tree/main/teams/platform"},
			ConnectRequest{Target: "acme/handbook", Ref: "main", Path: "teams/platform"}},
		{ConnectRequest{Target: "https://github.com/Acme/Handbook/tree/main/"},
			ConnectRequest{Target: "Acme/Handbook", Ref: "main", Path: "."}},
		{ConnectRequest{Target: "https://github.com/acme/handbook/tree/feature%2Fx/a%20b/c"},
			ConnectRequest{Target: "acme/handbook", Ref: "feature/x", Path: "a b/c"}},
		{ConnectRequest{Target: "HTTPS://WWW.GitHub.com/acme/handbook/tree/main/docs", Offline: true},
			ConnectRequest{Target: "acme/handbook", Ref: "main", Path: "docs", Offline: true}},
		{ConnectRequest{Target: "github.com/acme/handbook/tree/main/docs", Ref: "main", Path: "docs/"},
			ConnectRequest{Target: "acme/handbook", Ref: "main", Path: "docs"}},
		// The repository's address, with --ref (and --path).
		{ConnectRequest{Target: "https://github.com/acme/handbook.git", Ref: "main", Path: "docs"},
			ConnectRequest{Target: "acme/handbook", Ref: "main", Path: "docs"}},
		{ConnectRequest{Target: "https://github.com/acme/handbook/", Ref: "main"},
			ConnectRequest{Target: "acme/handbook", Ref: "main"}},
		// Not an address: unchanged.
		{ConnectRequest{Target: "docs/context"}, ConnectRequest{Target: "docs/context"}},
		{ConnectRequest{Target: "acme/handbook", Ref: "main"}, ConnectRequest{Target: "acme/handbook", Ref: "main"}},
	} {
		got, err := fromGitHubURL(c.in)
		if err != nil {
			t.Errorf("%+v: %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", c.in, diff)
		}
	}
	for in, code := range map[ConnectRequest]contracts.ErrorCode{
		{Target: "https://github.com/acme/handbook"}:                              contracts.CodeUsage,
		{Target: "https://github.com/acme/handbook/tree/main/docs", Ref: "dev"}:   contracts.CodeUsage,
		{Target: "https://github.com/acme/handbook/tree/main/docs", Path: "team"}: contracts.CodeUsage,
		{Target: "https://github.com/acme/handbook/blob/main/docs/NODE.md"}:       contracts.CodeSourceInvalid,
		{Target: "https://x:ghp_secret@github.com/acme/handbook/tree/main"}:       contracts.CodeSourceInvalid,
		{Target: "https://github.com/acme/handbook/tree/main?tab=readme"}:         contracts.CodeSourceInvalid,
		{Target: "https://gitlab.com/acme/handbook/-/tree/main"}:                  contracts.CodeSourceInvalid,
		{Target: "http://github.com/acme/handbook/tree/main"}:                     contracts.CodeSourceInvalid,
		{Target: "https://github.com/acme"}:                                       contracts.CodeSourceInvalid,
		{Target: "https://github.com/acme/handbook/tree"}:                         contracts.CodeSourceInvalid,
		{Target: "https://github.com/acme/handbook/tree/main/docs%zz"}:            contracts.CodeSourceInvalid,
	} {
		_, err := fromGitHubURL(in)
		var ce *contracts.Error
		if !errors.As(err, &ce) || ce.Code != code {
			t.Errorf("%+v: error %v, want %s", in, err, code)
			continue
		}
		if got := ce.Message; strings.Contains(got, "ghp_secret") || strings.Contains(got, "x:") {
			t.Errorf("%+v: the message shows the credentials: %s", in, got)
		}
	}
}
