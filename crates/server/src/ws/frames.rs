//! The frames the server writes, encoded here rather than by tungstenite.
//!
//! tungstenite encodes every frame into one buffer per connection, which
//! it drains after each write but never shrinks: each connection kept the
//! capacity of its largest burst (an ack, a Word Sprout state with its
//! listed plays and the state after the bot's answer: several KiB) for
//! its whole life, tens of megabytes over 10,000 connections. A server's
//! frames are simple (RFC 6455 §5.2: never masked; the server sends each
//! message as one frame), so the writer encodes a burst into a buffer of
//! its own, writes it in one call and frees it. Reading stays with
//! tungstenite: masking, fragments, size limits and UTF-8 checks are the
//! client's side, where the hard parts are.

use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A frame the server sends.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Frame<'a> {
    /// A whole text message.
    Text(&'a str),
    /// A ping (the server's are empty); at most 125 bytes are sent.
    Ping(&'a [u8]),
    /// The answer to a client's ping, with its payload (at most 125
    /// bytes, which tungstenite has already checked on the way in).
    Pong(&'a [u8]),
    /// A close frame: a status code and a reason (cut to fit the 125
    /// bytes of a control frame), or neither.
    Close(Option<(u16, &'a str)>),
}

const OP_TEXT: u8 = 0x1;
const OP_CLOSE: u8 = 0x8;
const OP_PING: u8 = 0x9;
const OP_PONG: u8 = 0xA;
/// FIN: every frame the server sends is a whole message.
const FIN: u8 = 0x80;
/// The most a control frame may carry (RFC 6455 §5.5).
const CONTROL_MAX: usize = 125;

impl Frame<'_> {
    /// Appends this frame, encoded, to `out`.
    pub(crate) fn put(&self, out: &mut Vec<u8>) {
        match *self {
            Frame::Text(t) => put_frame(out, OP_TEXT, &[t.as_bytes()]),
            Frame::Ping(p) => put_frame(out, OP_PING, &[cut(p, CONTROL_MAX)]),
            Frame::Pong(p) => put_frame(out, OP_PONG, &[cut(p, CONTROL_MAX)]),
            Frame::Close(None) => put_frame(out, OP_CLOSE, &[]),
            Frame::Close(Some((code, reason))) => {
                let reason = cut_str(reason, CONTROL_MAX - 2);
                put_frame(out, OP_CLOSE, &[&code.to_be_bytes(), reason.as_bytes()])
            }
        }
    }

    /// How many bytes [`Frame::put`] appends (at most).
    pub(crate) fn encoded_len(&self) -> usize {
        let payload = match *self {
            Frame::Text(t) => t.len(),
            Frame::Ping(p) | Frame::Pong(p) => p.len().min(CONTROL_MAX),
            Frame::Close(None) => 0,
            Frame::Close(Some(_)) => CONTROL_MAX,
        };
        header_len(payload) + payload
    }
}

/// The length of a frame's header for a payload of `n` bytes: the
/// length fits in 7 bits, or 16 after the marker 126, or 64 after 127.
fn header_len(n: usize) -> usize {
    if n < 126 {
        2
    } else if n <= usize::from(u16::MAX) {
        4
    } else {
        10
    }
}

fn put_frame(out: &mut Vec<u8>, opcode: u8, parts: &[&[u8]]) {
    let n: usize = parts.iter().map(|p| p.len()).sum();
    out.reserve(header_len(n) + n);
    out.push(FIN | opcode);
    // The second byte's top bit is the mask bit: a server never masks.
    if n < 126 {
        out.push(n as u8);
    } else if let Ok(short) = u16::try_from(n) {
        out.push(126);
        out.extend_from_slice(&short.to_be_bytes());
    } else {
        out.push(127);
        out.extend_from_slice(&(n as u64).to_be_bytes());
    }
    for p in parts {
        out.extend_from_slice(p);
    }
}

fn cut(bytes: &[u8], max: usize) -> &[u8] {
    &bytes[..bytes.len().min(max)]
}

/// `s` cut to at most `max` bytes, on a character boundary.
fn cut_str(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The reading half of an upgraded connection, as tungstenite wants it
/// (a stream it may also write to). It never writes: what tungstenite
/// answers by itself (a pong, the reply to a close) is dropped here, and
/// the connection's writer sends those answers with its own frames, so
/// the two never interleave bytes on the socket.
pub(crate) struct ReadSide<R>(pub R);

impl<R: AsyncRead + Unpin> AsyncRead for ReadSide<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl<R: Unpin> AsyncWrite for ReadSide<R> {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::protocol::{frame::coding::CloseCode, Role};
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::WebSocketStream;

    fn encode(frames: &[Frame<'_>]) -> Vec<u8> {
        let mut out = Vec::new();
        for f in frames {
            let before = out.len();
            f.put(&mut out);
            assert!(out.len() - before <= f.encoded_len(), "{f:?}");
        }
        out
    }

    /// What a real client (tungstenite, in the client's role: it refuses
    /// masked frames from a server) reads from `bytes`.
    async fn client_reads(bytes: Vec<u8>) -> Vec<Message> {
        let (mut server, client) = tokio::io::duplex(1 << 20);
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .max_message_size(Some(1 << 20))
            .max_frame_size(Some(1 << 20));
        let mut ws = WebSocketStream::from_raw_socket(client, Role::Client, Some(config)).await;
        tokio::io::AsyncWriteExt::write_all(&mut server, &bytes)
            .await
            .unwrap();
        // The server's end stays open: the client answers the ping.
        let mut got = Vec::new();
        while let Some(Ok(m)) = ws.next().await {
            let close = matches!(m, Message::Close(_));
            got.push(m);
            if close {
                break;
            }
        }
        drop(server);
        got
    }

    #[test]
    fn headers_by_length_class() {
        for (n, header) in [
            (0, vec![0x81, 0]),
            (125, vec![0x81, 125]),
            (126, vec![0x81, 126, 0, 126]),
            (65535, vec![0x81, 126, 0xff, 0xff]),
            (65536, vec![0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]),
        ] {
            let text = "a".repeat(n);
            let out = encode(&[Frame::Text(&text)]);
            assert_eq!(out[..header.len()], header[..], "length {n}");
            assert_eq!(out.len(), header.len() + n, "length {n}");
            assert_eq!(Frame::Text(&text).encoded_len(), out.len());
        }
    }

    #[test]
    fn control_frames_stay_within_125_bytes() {
        let long = "é".repeat(100); // 200 bytes: cut on a character boundary
        let out = encode(&[Frame::Close(Some((1008, &long)))]);
        assert_eq!(out[0], 0x88);
        assert!(out[1] as usize <= CONTROL_MAX);
        assert_eq!(out.len(), 2 + out[1] as usize);
        assert!(std::str::from_utf8(&out[4..]).is_ok());
        let out = encode(&[Frame::Ping(&[7; 300])]);
        assert_eq!(out[..2], [0x89, 125]);
        assert_eq!(encode(&[Frame::Close(None)]), [0x88, 0]);
        assert_eq!(encode(&[Frame::Pong(b"hi")]), [0x8a, 2, b'h', b'i']);
    }

    #[tokio::test]
    async fn a_real_client_reads_every_length_class_and_the_close() {
        let texts: Vec<String> = [0, 1, 125, 126, 127, 1000, 65535, 65536, 200_000]
            .iter()
            .map(|&n| {
                // Multi-byte characters too: the frame counts bytes.
                let mut s = "ü".repeat(n / 2);
                if n % 2 == 1 {
                    s.push('x');
                }
                s
            })
            .collect();
        let mut frames: Vec<Frame<'_>> = texts.iter().map(|t| Frame::Text(t)).collect();
        frames.push(Frame::Ping(b""));
        frames.push(Frame::Pong(b"p"));
        frames.push(Frame::Close(Some((1012, "server restarting"))));
        let got = client_reads(encode(&frames)).await;
        let last = got
            .last()
            .map(|m| format!("{m:?}").chars().take(80).collect::<String>());
        assert_eq!(got.len(), texts.len() + 3, "the last: {last:?}");
        for (m, t) in got.iter().zip(&texts) {
            match m {
                Message::Text(s) => assert_eq!(s.as_str(), t.as_str()),
                other => panic!("expected text of {} bytes, got {other:?}", t.len()),
            }
        }
        let n = texts.len();
        assert!(matches!(&got[n], Message::Ping(p) if p.is_empty()));
        assert!(matches!(&got[n + 1], Message::Pong(p) if &p[..] == b"p"));
        match &got[n + 2] {
            Message::Close(Some(c)) => {
                assert_eq!(c.code, CloseCode::Restart);
                assert_eq!(c.reason.as_str(), "server restarting");
            }
            other => panic!("expected a close frame, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_real_client_reads_an_empty_close_and_a_cut_reason() {
        let long = "ß".repeat(200);
        let got = client_reads(encode(&[Frame::Close(Some((1008, &long)))])).await;
        match &got[..] {
            [Message::Close(Some(c))] => {
                assert_eq!(c.code, CloseCode::Policy);
                assert_eq!(c.reason.len(), 122); // 123 cut back to a boundary
                assert!(long.starts_with(c.reason.as_str()));
            }
            other => panic!("{other:?}"),
        }
        let got = client_reads(encode(&[Frame::Close(None)])).await;
        assert!(matches!(&got[..], [Message::Close(None)]), "{got:?}");
    }

    #[tokio::test]
    async fn the_read_side_drops_what_tungstenite_writes() {
        use tokio::io::AsyncWriteExt;
        let (a, _b) = tokio::io::duplex(64);
        let mut side = ReadSide(a);
        // More than the pipe holds: nothing reaches it, nothing blocks.
        side.write_all(&[0; 1000]).await.unwrap();
        side.flush().await.unwrap();
    }
}
