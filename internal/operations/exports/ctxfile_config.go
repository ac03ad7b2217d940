package exports

import (
	"encoding/json"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// ctxfileConfig is the part of .ctxfile.json (the .ctxfile convention's
// own configuration, at the project root) this tool reads. Other keys
// belong to other tools and are ignored.
type ctxfileConfig struct {
	Export struct {
		Include *[]string `json:"include"`
	} `json:"export"`
}

// readCtxfileInclude is the custom profile's section allowlist.
func readCtxfileInclude(projectRoot string) ([]string, error) {
	name := filepath.Join(projectRoot, ".ctxfile.json")
	data, err := readIfRegular(name)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, contracts.Errorf(contracts.CodeCtxfileConfigInvalid, "profile custom needs .ctxfile.json at the project root with export.include, a list of sections")
	}
	var cfg ctxfileConfig
	if err := jsonUnmarshal(data, &cfg); err != nil {
		return nil, contracts.Errorf(contracts.CodeCtxfileConfigInvalid, "cannot read .ctxfile.json: %v", err)
	}
	if cfg.Export.Include == nil {
		return nil, contracts.Errorf(contracts.CodeCtxfileConfigInvalid, ".ctxfile.json has no export.include list of sections")
	}
	return *cfg.Export.Include, nil
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
