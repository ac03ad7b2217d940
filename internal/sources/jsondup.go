package sources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// checkDuplicateKeys walks valid JSON and reports the first object key that
// appears twice, which encoding/json would silently collapse.
func checkDuplicateKeys(data []byte) *pointerError {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return walkValue(dec, "")
}

func walkValue(dec *json.Decoder, ptr string) *pointerError {
	tok, err := dec.Token()
	if err != nil {
		return &pointerError{ptr, "not valid JSON"}
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return &pointerError{ptr, "not valid JSON"}
			}
			key, _ := kt.(string)
			child := ptr + "/" + escapePointer(key)
			if seen[key] {
				return &pointerError{child, fmt.Sprintf("duplicate key %q", key)}
			}
			seen[key] = true
			if perr := walkValue(dec, child); perr != nil {
				return perr
			}
		}
		_, _ = dec.Token() // '}'
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if perr := walkValue(dec, ptr+"/"+strconv.Itoa(i)); perr != nil {
				return perr
			}
		}
		_, _ = dec.Token() // ']'
	}
	return nil
}
