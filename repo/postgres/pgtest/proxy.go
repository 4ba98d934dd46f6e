package pgtest

import (
	"net"
	"net/url"
	"sync"
	"testing"
)

// Proxy forwards TCP connections to a PostgreSQL server and can stop
// forwarding (Freeze): to the client, the database stops answering, as
// one that is SIGSTOPped or cut off by the network does, while the shared
// test server goes on serving everyone else.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	thawed chan struct{} // closed while forwarding
	conns  map[net.Conn]bool
	closed bool
}

// NewProxy starts a proxy to the server of dsn for the test, and returns
// it and dsn through it. It forwards until the test ends.
func NewProxy(t testing.TB, dsn string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: u.Host, thawed: make(chan struct{}), conns: map[net.Conn]bool{}}
	close(p.thawed)
	t.Cleanup(p.close)
	go p.accept()
	u.Host = ln.Addr().String()
	return p, u.String()
}

// Freeze stops forwarding: bytes in either direction, and new connections,
// wait until Thaw.
func (p *Proxy) Freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
		p.thawed = make(chan struct{})
	default: // frozen already
	}
}

// Thaw forwards again, what waited first.
func (p *Proxy) Thaw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.thawed:
	default:
		close(p.thawed)
	}
}

// wait returns once the proxy forwards.
func (p *Proxy) wait() {
	p.mu.Lock()
	thawed := p.thawed
	p.mu.Unlock()
	<-thawed
}

func (p *Proxy) close() {
	p.Thaw()
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.ln.Close()
}

// track keeps c to close with the proxy; false if the proxy is closed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns[c] = true
	return true
}

func (p *Proxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(client) {
			return
		}
		go func() {
			p.wait() // a new connection waits too: its client's connect timeout tells
			server, err := net.Dial("tcp", p.target)
			if err != nil || !p.track(server) {
				client.Close()
				return
			}
			go p.forward(server, client)
			p.forward(client, server)
		}()
	}
}

// forward copies from src to dst while the proxy forwards, then closes
// both.
func (p *Proxy) forward(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.wait()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // EOF or a closed connection, either side's
		}
	}
}
