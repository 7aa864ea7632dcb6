//! The stdio transport, with the one answer rmcp does not give: a line that is not JSON gets the
//! JSON-RPC parse error (-32700, `id: null`), as JSON-RPC 2.0 specifies, instead of no answer.
//!
//! The server (rmcp) runs on one end of an in-memory pipe. One task reads stdin line by line and
//! passes each line that is JSON to the server; a line that is not gets its parse error. Another
//! task passes the server's messages on, and one writer puts them and the parse errors on stdout,
//! whole lines each, in the order they come. When stdin ends, the server is told so only once it
//! has answered every request it was given, so a client that writes its requests and closes stdin
//! (`printf ... | surgical mcp`) still gets every answer.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::{mpsc, Notify};
use tokio::task::JoinHandle;

/// The most a message may hold in the pipe before the side writing it waits for the other.
const PIPE_BYTES: usize = 1 << 20;

/// The server's end of the pipe: what it reads, what it writes.
pub(crate) type Transport = (ReadHalf<DuplexStream>, WriteHalf<DuplexStream>);

/// The tasks that move bytes between stdio and the server.
pub(crate) struct Pumps {
    input: JoinHandle<()>,
    output: JoinHandle<()>,
    writer: JoinHandle<()>,
}

/// The transport to serve on, and the tasks behind it (started now, on the current runtime).
pub(crate) fn transport() -> (Transport, Pumps) {
    let (server_end, our_end) = tokio::io::duplex(PIPE_BYTES);
    let (to_us, from_us) = tokio::io::split(server_end);
    let (from_server, to_server) = tokio::io::split(our_end);
    let (lines, outgoing) = mpsc::unbounded_channel::<Vec<u8>>();
    let pending = Arc::new(Pending::default());
    let input = tokio::spawn(pump_in(to_server, lines.clone(), Arc::clone(&pending)));
    let output = tokio::spawn(pump_out(from_server, lines, pending));
    let writer = tokio::spawn(write_stdout(outgoing));
    ((to_us, from_us), Pumps { input, output, writer })
}

impl Pumps {
    /// Once the server has stopped: writes out what it wrote last, then stops reading stdin.
    pub(crate) async fn finish(self) {
        let _ = self.output.await;
        self.input.abort();
        let _ = self.input.await;
        let _ = self.writer.await;
    }
}

/// How many requests passed to the server have no answer yet.
///
/// Counted, not matched by id: rmcp answers a message it cannot read as a request with an error
/// that has no id (-32600), one per message.
#[derive(Default)]
struct Pending {
    count: Mutex<usize>,
    changed: Notify,
}

impl Pending {
    fn count(&self) -> std::sync::MutexGuard<'_, usize> {
        self.count.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until every request passed on has its answer (or the server stopped).
    async fn all_answered(&self) {
        loop {
            let changed = self.changed.notified();
            if *self.count() == 0 {
                return;
            }
            changed.await;
        }
    }

    fn asked(&self) {
        *self.count() += 1;
    }

    fn answered(&self) {
        let mut count = self.count();
        *count = count.saturating_sub(1);
        drop(count);
        self.changed.notify_waiters();
    }

    /// Nothing more will be answered: stop waiting.
    fn give_up(&self) {
        *self.count() = 0;
        self.changed.notify_waiters();
    }
}

/// Whether `line` is a request (a `method` and an `id`: it gets an answer) or, with `request`
/// false, a response (a `result` or an `error`).
fn is_message(line: &[u8], request: bool) -> bool {
    let Ok(message) = serde_json::from_slice::<serde_json::Value>(line) else {
        return false;
    };
    if request {
        message.get("method").is_some() && message.get("id").is_some_and(|id| !id.is_null())
    } else {
        message.get("method").is_none() && (message.get("result").is_some() || message.get("error").is_some())
    }
}

/// Lines from stdin: JSON to the server, anything else answered with a parse error.
async fn pump_in(
    mut to_server: WriteHalf<DuplexStream>,
    replies: mpsc::UnboundedSender<Vec<u8>>,
    pending: Arc<Pending>,
) {
    let mut stdin = BufReader::new(tokio::io::stdin());
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdin.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        match parse_error(&line).or_else(|| invalid_params(&line)) {
            Some(reply) => {
                if replies.send(reply).is_err() {
                    break;
                }
            }
            None => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                if is_message(&line, true) {
                    pending.asked();
                }
                if to_server.write_all(&line).await.is_err() {
                    break;
                }
            }
        }
    }
    // End of input: once the server has answered what it was asked, it sees the end and stops.
    pending.all_answered().await;
    let _ = to_server.shutdown().await;
}

/// The server's messages, one line each, to the writer.
async fn pump_out(from_server: ReadHalf<DuplexStream>, lines: mpsc::UnboundedSender<Vec<u8>>, pending: Arc<Pending>) {
    let mut from_server = BufReader::new(from_server);
    loop {
        let mut line = Vec::new();
        match from_server.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let answer = is_message(&line, false);
                if lines.send(line).is_err() {
                    break;
                }
                if answer {
                    pending.answered();
                }
            }
        }
    }
    pending.give_up();
}

async fn write_stdout(mut outgoing: mpsc::UnboundedReceiver<Vec<u8>>) {
    let mut stdout = tokio::io::stdout();
    while let Some(line) = outgoing.recv().await {
        if stdout.write_all(&line).await.is_err() || stdout.flush().await.is_err() {
            break;
        }
    }
}

/// The JSON-RPC parse error answering `line`, if it is not JSON (a blank line is no message and
/// gets no answer, as rmcp skips it).
pub(crate) fn parse_error(line: &[u8]) -> Option<Vec<u8>> {
    let text = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    if text.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let error = serde_json::from_slice::<serde::de::IgnoredAny>(text).err()?;
    let message = if std::str::from_utf8(text).is_err() {
        "Parse error: the line is not UTF-8; send one JSON-RPC message per line, as UTF-8 JSON".to_string()
    } else {
        format!("Parse error: the line is not JSON ({error}); send one JSON-RPC message per line")
    };
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": message},
    });
    let mut bytes = serde_json::to_vec(&reply).expect("JSON serializes");
    bytes.push(b'\n');
    Some(bytes)
}

/// The JSON-RPC invalid-params error (-32602) answering a request whose `params` is not an
/// object (every MCP request's params are one; rmcp would answer "invalid request" without the id).
pub(crate) fn invalid_params(line: &[u8]) -> Option<Vec<u8>> {
    let text = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
    let message: serde_json::Value = serde_json::from_slice(text).ok()?;
    let method = message.get("method")?.as_str()?;
    let id = message.get("id").filter(|id| id.is_string() || id.is_number())?;
    let params = message.get("params").filter(|p| !p.is_null())?;
    if params.is_object() {
        return None;
    }
    let hint = if method == "tools/call" {
        "give {\"name\": <tool name>, \"arguments\": {...}}"
    } else {
        "give params as a JSON object"
    };
    let reply = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32602, "message": format!("invalid params for {method}: params must be an object, not {params}; {hint}")},
    });
    let mut bytes = serde_json::to_vec(&reply).expect("JSON serializes");
    bytes.push(b'\n');
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lines_that_are_not_json_get_a_parse_error() {
        for ok in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"[..],
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n",
            b"\xef\xbb\xbf{\"a\":1}\n",
            b"\n",
            b"   \r\n",
            b"[1, 2]\n",
        ] {
            assert_eq!(parse_error(ok), None, "{}", String::from_utf8_lossy(ok));
        }
        for bad in [
            &b"this is not json\n"[..],
            b"{\"jsonrpc\":\"2.0\",",
            b"\xff\xfe\n",
            b"{} {}\n",
        ] {
            let reply: serde_json::Value = serde_json::from_slice(&parse_error(bad).unwrap()).unwrap();
            assert_eq!(reply["error"]["code"], -32700, "{reply}");
            assert!(reply["id"].is_null());
        }
    }

    #[test]
    fn requests_whose_params_are_not_an_object_get_invalid_params() {
        let reply = invalid_params(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":5}\n").unwrap();
        let reply: serde_json::Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(reply["id"], 9);
        for passed_on in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{}}"[..],
            b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}",
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":5}",
            b"not json",
        ] {
            assert_eq!(
                invalid_params(passed_on),
                None,
                "{}",
                String::from_utf8_lossy(passed_on)
            );
        }
    }
}
