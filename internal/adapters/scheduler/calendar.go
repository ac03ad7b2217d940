package scheduler

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Calendar is when a job runs, in both schedulers' terms: a systemd
// OnCalendar expression and the equivalent launchd StartCalendarInterval
// entries (each a map of Minute, Hour, Weekday).
type Calendar struct {
	OnCalendar string
	Intervals  []map[string]int
	// Spread is the randomized delay systemd adds (RandomizedDelaySec).
	Spread time.Duration
}

var weekdays = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}
var weekdayNames = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

// Every turns a period into a calendar: minutes dividing an hour, hours
// dividing a day, a day (at 03:00) or a week (Monday 03:00).
func Every(d time.Duration) (Calendar, error) {
	switch {
	case d == 7*24*time.Hour:
		return At("mon 03:00")
	case d == 24*time.Hour:
		return At("03:00")
	case d >= time.Hour && d < 24*time.Hour && d%time.Hour == 0 && 24%int(d/time.Hour) == 0:
		n := int(d / time.Hour)
		c := Calendar{OnCalendar: fmt.Sprintf("*-*-* 00/%d:00:00", n), Spread: spread(d)}
		if n == 1 {
			c.OnCalendar = "*-*-* *:00:00"
		}
		for h := 0; h < 24; h += n {
			c.Intervals = append(c.Intervals, map[string]int{"Hour": h, "Minute": 0})
		}
		return c, nil
	case d >= 5*time.Minute && d < time.Hour && d%time.Minute == 0 && 60%int(d/time.Minute) == 0:
		n := int(d / time.Minute)
		c := Calendar{OnCalendar: fmt.Sprintf("*-*-* *:00/%d:00", n), Spread: spread(d)}
		for m := 0; m < 60; m += n {
			c.Intervals = append(c.Intervals, map[string]int{"Minute": m})
		}
		return c, nil
	}
	return Calendar{}, fmt.Errorf("--every %s: use 5m to 30m dividing an hour, 1h to 12h dividing a day, 24h or 168h", d)
}

// At turns "HH:MM" (daily) or "<weekday> HH:MM" (weekly) into a calendar.
func At(spec string) (Calendar, error) {
	f := strings.Fields(strings.ToLower(spec))
	wd := -1
	if len(f) == 2 {
		d, ok := weekdays[f[0][:min(3, len(f[0]))]]
		if !ok {
			return Calendar{}, fmt.Errorf("--at %q: unknown weekday %q", spec, f[0])
		}
		wd, f = d, f[1:]
	}
	if len(f) != 1 {
		return Calendar{}, fmt.Errorf("--at %q: use HH:MM or <weekday> HH:MM", spec)
	}
	hs, ms, ok := strings.Cut(f[0], ":")
	h, herr := strconv.Atoi(hs)
	m, merr := strconv.Atoi(ms)
	if !ok || herr != nil || merr != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(ms) != 2 {
		return Calendar{}, fmt.Errorf("--at %q: use HH:MM (24-hour)", spec)
	}
	c := Calendar{OnCalendar: fmt.Sprintf("*-*-* %02d:%02d:00", h, m), Spread: 15 * time.Minute}
	entry := map[string]int{"Hour": h, "Minute": m}
	if wd >= 0 {
		c.OnCalendar = weekdayNames[wd] + " " + c.OnCalendar
		entry["Weekday"] = wd
	}
	c.Intervals = []map[string]int{entry}
	return c, nil
}

// spread is the randomized delay: a tenth of the period, at most 15 minutes.
func spread(period time.Duration) time.Duration {
	return min(period/10, 15*time.Minute)
}

// Next is the first minute after t the calendar fires (before any
// randomized delay), zero when it has no interval.
func (c Calendar) Next(t time.Time) time.Time {
	m := t.Truncate(time.Minute).Add(time.Minute)
	for i := 0; i <= 7*24*60; i++ {
		for _, iv := range c.Intervals {
			if fires(iv, m) {
				return m
			}
		}
		m = m.Add(time.Minute)
	}
	return time.Time{}
}

// fires reports whether minute m matches a launchd-style interval.
func fires(iv map[string]int, m time.Time) bool {
	for k, want := range iv {
		var have int
		switch k {
		case "Minute":
			have = m.Minute()
		case "Hour":
			have = m.Hour()
		case "Weekday":
			have = int(m.Weekday())
		default:
			return false
		}
		if have != want {
			return false
		}
	}
	return true
}

// Of rebuilds a schedule's calendar from what the user asked for: a
// period (a Go duration) or an --at spec.
func Of(every, at string) (Calendar, error) {
	if every != "" {
		d, err := time.ParseDuration(every)
		if err != nil {
			return Calendar{}, fmt.Errorf("every %q: %w", every, err)
		}
		return Every(d)
	}
	if at == "" {
		at = "03:00"
	}
	return At(at)
}
