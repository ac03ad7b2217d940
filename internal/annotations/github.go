package annotations

import (
	"fmt"
	"io"
	"strings"
)

// WriteGitHub prints each annotation as a GitHub Actions workflow command
// (::error / ::warning / ::notice file=…,line=…,endLine=…,title=…::message),
// escaped as the runner expects: %, CR and LF in messages; also : and , in
// properties.
func WriteGitHub(w io.Writer, as []Annotation) error {
	for _, a := range as {
		cmd := "notice"
		switch a.Level {
		case levelError:
			cmd = "error"
		case levelWarning:
			cmd = "warning"
		}
		var props []string
		if a.Where != nil {
			props = append(props, "file="+escapeProperty(a.Where.Path))
			if a.Where.StartLine > 0 {
				props = append(props, fmt.Sprintf("line=%d", a.Where.StartLine))
				if a.Where.EndLine > a.Where.StartLine {
					props = append(props, fmt.Sprintf("endLine=%d", a.Where.EndLine))
				}
			}
		}
		props = append(props, "title="+escapeProperty(a.Title))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(a.Message)); err != nil {
			return err
		}
	}
	return nil
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
