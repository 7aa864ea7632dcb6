// Package scheduler runs periodic jobs with retries and a bounded worker pool.
package scheduler

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sort"
	"sync"
	"time"
)

// Job states.
const (
	StateIdle     = "idle"
	StateRunning  = "running"
	StateFailed   = "failed"
	StateDisabled = "disabled"
)

// Defaults used when a job leaves a field at zero.
const (
	defaultInterval   = 30 * time.Second
	defaultMaxRetries = 3
	defaultBackoff    = 2 * time.Second
	maxBackoff        = 5 * time.Minute
)

// ErrUnknownJob is returned for a job name that was never registered.
var ErrUnknownJob = errors.New("scheduler: unknown job")

// Job is one periodic task.
type Job struct {
	Name       string
	Interval   time.Duration
	MaxRetries int
	Run        func(ctx context.Context) error

	state      string
	failures   int
	lastRun    time.Time
	lastError  error
}

// Scheduler owns the jobs and the worker pool.
type Scheduler struct {
	mu       sync.Mutex
	jobs     map[string]*Job
	workers  int
	clock    func() time.Time
	stopped  chan struct{}
}

// New returns a scheduler with the given number of workers.
func New(workers int) *Scheduler {
	if workers <= 0 {
		workers = 1
	}
	return &Scheduler{
		jobs:    make(map[string]*Job),
		workers: workers,
		clock:   time.Now,
		stopped: make(chan struct{}),
	}
}

// Register adds a job, filling in defaults.
func (s *Scheduler) Register(job *Job) error {
	if job.Name == "" {
		return fmt.Errorf("scheduler: a job needs a name")
	}
	if job.Run == nil {
		return fmt.Errorf("scheduler: job %q has no Run function", job.Name)
	}
	if job.Interval == 0 {
		job.Interval = defaultInterval
	}
	if job.MaxRetries == 0 {
		job.MaxRetries = defaultMaxRetries
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.jobs[job.Name]; exists {
		return fmt.Errorf("scheduler: job %q registered twice", job.Name)
	}
	job.state = StateIdle
	s.jobs[job.Name] = job
	return nil
}

// Disable stops a job from being scheduled again.
func (s *Scheduler) Disable(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	job, ok := s.jobs[name]
	if !ok {
		return ErrUnknownJob
	}
	job.state = StateDisabled
	return nil
}

// due lists the jobs whose interval has elapsed, oldest first.
func (s *Scheduler) due(now time.Time) []*Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ready []*Job
	for _, job := range s.jobs {
		if job.state == StateDisabled || job.state == StateRunning {
			continue
		}
		if now.Sub(job.lastRun) >= job.Interval {
			ready = append(ready, job)
		}
	}
	sort.Slice(ready, func(i, j int) bool {
		return ready[i].lastRun.Before(ready[j].lastRun)
	})
	return ready
}

// backoff doubles the wait after each failure, up to maxBackoff.
func backoff(failures int) time.Duration {
	wait := defaultBackoff
	for i := 1; i < failures; i++ {
		wait *= 2
		if wait >= maxBackoff {
			return maxBackoff
		}
	}
	return wait
}

// runOne runs a job once, retrying with backoff, and records the outcome.
func (s *Scheduler) runOne(ctx context.Context, job *Job) {
	s.mu.Lock()
	job.state = StateRunning
	s.mu.Unlock()

	var err error
	for attempt := 0; attempt <= job.MaxRetries; attempt++ {
		err = job.Run(ctx)
		if err == nil {
			break
		}
		log.Printf("job %s: attempt %d failed: %v", job.Name, attempt+1, err)
		select {
		case <-ctx.Done():
			err = ctx.Err()
			attempt = job.MaxRetries
		case <-time.After(backoff(attempt + 1)):
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	job.lastRun = s.clock()
	job.lastError = err
	if err != nil {
		job.failures++
		job.state = StateFailed
		return
	}
	job.failures = 0
	job.state = StateIdle
}

// Start runs due jobs every tick until the context is cancelled.
func (s *Scheduler) Start(ctx context.Context, tick time.Duration) {
	queue := make(chan *Job)
	var wg sync.WaitGroup
	for w := 0; w < s.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range queue {
				s.runOne(ctx, job)
			}
		}()
	}
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			close(queue)
			wg.Wait()
			close(s.stopped)
			return
		case now := <-ticker.C:
			for _, job := range s.due(now) {
				queue <- job
			}
		}
	}
}

// Status reports every job's state, sorted by name.
func (s *Scheduler) Status() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.jobs))
	for name := range s.jobs {
		names = append(names, name)
	}
	sort.Strings(names)
	lines := make([]string, 0, len(names))
	for _, name := range names {
		job := s.jobs[name]
		line := fmt.Sprintf("%-20s %-9s failures=%d", name, job.state, job.failures)
		if job.lastError != nil {
			line += " last error: " + job.lastError.Error()
		}
		lines = append(lines, line)
	}
	return lines
}
