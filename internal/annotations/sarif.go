package annotations

import (
	"encoding/json"
	"io"
	"net/url"
	"slices"
)

// The subset of SARIF 2.1.0 (OASIS) a report needs.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations,omitempty"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine,omitempty"`
}

// informationURI is where the tool is described.
const informationURI = "https://github.com/git-context-tree/git-context-tree"

// WriteSARIF prints the annotations as one SARIF 2.1.0 log with one run,
// artifact URIs relative to %SRCROOT% (the repository root), and nothing
// else on the stream.
func WriteSARIF(w io.Writer, as []Annotation, version string) error {
	// %SRCROOT% is left undeclared: the root is wherever the log is read
	// (a checkout of the repository), not this machine's path.
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "git-context-tree", Version: version, InformationURI: informationURI, Rules: []sarifRule{}}},
		Results: []sarifResult{},
	}
	for _, a := range as {
		i := slices.IndexFunc(run.Tool.Driver.Rules, func(r sarifRule) bool { return r.ID == a.Rule })
		if i < 0 {
			i = len(run.Tool.Driver.Rules)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: a.Rule, ShortDescription: sarifMessage{Text: a.Title}})
		}
		r := sarifResult{RuleID: a.Rule, RuleIndex: i, Level: a.Level, Message: sarifMessage{Text: a.Message}}
		if a.Where != nil {
			r.Locations = []sarifLocation{location(*a.Where, nil)}
		}
		for k, rel := range a.Related {
			id := k
			r.RelatedLocations = append(r.RelatedLocations, location(rel, &id))
		}
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

func location(l Location, id *int) sarifLocation {
	loc := sarifLocation{ID: id, PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: (&url.URL{Path: l.Path}).String(), URIBaseID: "%SRCROOT%"}}}
	if l.StartLine > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: l.StartLine}
		if l.EndLine > l.StartLine {
			loc.PhysicalLocation.Region.EndLine = l.EndLine
		}
	}
	return loc
}
