// Package cleanup carries out scheduled maintenance of a shared tree
// (S19): schedules and their native timers, runs of the cleanup agent in
// a write session (judged by session.Inspect, committed by session.Finish),
// their history and logs.
package cleanup
