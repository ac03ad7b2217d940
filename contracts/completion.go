package contracts

// CompletionResult is the result of `completion <shell>`: the shell's
// completion script.
type CompletionResult struct {
	SchemaVersion int `json:"schemaVersion"`
	// Shell is bash, zsh or fish.
	Shell string `json:"shell"`
	// Script is the script to load in that shell.
	Script string `json:"script"`
}
