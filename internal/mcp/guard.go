package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxMessageBytes bounds one JSON-RPC message from the client. Tool
// arguments are far smaller (maxArgumentBytes); this only keeps a runaway
// line from filling memory.
const maxMessageBytes = 1 << 20

// lockedWriter serialises writes to stdout: the SDK writes each message in
// one Write, and so does the input guard, so lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// guardInput passes the client's newline-delimited messages to the SDK,
// answering a line that is not a JSON-RPC message (malformed JSON, a
// non-message, one over maxMessageBytes) with a JSON-RPC error instead:
// the SDK would end the session on it, and bad input must never cost the
// client its connection.
func guardInput(in io.Reader, out io.Writer) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, tooLong, err := readLine(br)
			switch {
			case tooLong:
				reject(out, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message larger than %d bytes", maxMessageBytes))
			case len(bytes.TrimSpace(line)) == 0:
			case !json.Valid(line):
				reject(out, nil, jsonrpc.CodeParseError, "parse error: not JSON")
			case bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")):
				// The SDK ends the session on a batch; MCP has no batches
				// since 2025-06-18.
				reject(out, nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line")
			case !isMessage(line):
				reject(out, idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
			default:
				if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return // the server is gone
				}
			}
			if err != nil {
				pw.Close() // EOF (or a read error): the session ends cleanly
				return
			}
		}
	}()
	return pr
}

// readLine reads one line without its newline; a line over
// maxMessageBytes is consumed and reported as tooLong.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxMessageBytes {
				tooLong, line = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// isMessage reports whether line is one JSON-RPC message.
func isMessage(line []byte) bool {
	_, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
	return err == nil
}

// idOf is the id of a malformed request, when it has a usable one.
func idOf(line []byte) any {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	switch m.ID.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

func reject(out io.Writer, id any, code int64, msg string) {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	if err == nil {
		_, _ = out.Write(append(b, '\n'))
	}
}
