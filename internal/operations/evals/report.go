package evals

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/eval"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Report computes the report of runs (ids or unique prefixes).
func Report(ctx context.Context, env operations.Env, runs []string) (*contracts.EvalReport, error) {
	var ms []contracts.EvalRun
	for _, arg := range runs {
		id, err := resolveRun(env, arg)
		if err != nil {
			return nil, err
		}
		m, _, err := loadRun(env, id)
		if err != nil {
			return nil, err
		}
		ms = append(ms, *m)
	}
	return eval.Report(ms)
}
