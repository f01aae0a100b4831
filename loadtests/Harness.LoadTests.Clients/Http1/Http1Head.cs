using System.Buffers.Text;
using System.Text;

namespace Harness.LoadTests.Clients.Http1;

/// <summary>How a response's body is delimited (RFC 9112 §6.3).</summary>
internal enum Http1Framing
{
    /// <summary>A status that has none (1xx, 204, 304).</summary>
    None,

    /// <summary>Content-Length bytes.</summary>
    Length,

    /// <summary>Transfer-Encoding: chunked.</summary>
    Chunked,

    /// <summary>Everything until the server closes the connection.</summary>
    UntilClose,
}

/// <summary>
/// A response's status line and header fields, parsed from the bytes before the blank line: only what a load client
/// needs (status, framing, whether the connection stays open, and one header's value the caller asked for).
/// </summary>
internal readonly record struct Http1Head(int Status, Http1Framing Framing, long ContentLength, bool KeepAlive, int CapturedStart, int CapturedLength)
{
    /// <summary>Parses a response's head: its status line and header lines, without the blank line that ends them.</summary>
    /// <param name="capture">A header name whose value to locate (any case); empty for none. Its place is relative to <paramref name="head"/>.</param>
    /// <exception cref="FormatException">The head is not an HTTP/1.x response.</exception>
    public static Http1Head Parse(ReadOnlySpan<byte> head, ReadOnlySpan<byte> capture)
    {
        var length = head.Length;
        var lineEnd = head.IndexOf("\r\n"u8);
        var statusLine = lineEnd < 0 ? head : head[..lineEnd];

        // "HTTP/1.1 200 OK": the version, a space, three digits, then an optional reason.
        if (statusLine.Length < 12 || !statusLine.StartsWith("HTTP/1."u8) || statusLine[8] != (byte)' '
            || !Utf8Parser.TryParse(statusLine.Slice(9, 3), out int status, out var used) || used != 3 || status < 100
            || (statusLine.Length > 12 && statusLine[12] != (byte)' '))
        {
            throw new FormatException($"The reply's status line is not HTTP/1.x: \"{Printable(statusLine)}\".");
        }

        var keepAlive = statusLine[7] == (byte)'1';
        long contentLength = -1;
        var chunked = false;
        var (capturedStart, capturedLength) = (-1, 0);
        for (var at = lineEnd < 0 ? length : lineEnd + 2; at < length;)
        {
            var next = head[at..].IndexOf("\r\n"u8);
            var line = next < 0 ? head[at..] : head.Slice(at, next);
            var colon = line.IndexOf((byte)':');
            if (colon <= 0)
            {
                throw new FormatException($"The reply has a header line without a name: \"{Printable(line)}\".");
            }

            var name = line[..colon];
            var valueOffset = colon + 1 + (line.Length - colon - 1 - line[(colon + 1)..].TrimStart(" \t"u8).Length);
            var value = line[valueOffset..].TrimEnd(" \t"u8);
            if (name.Length == 14 && Ascii.EqualsIgnoreCase(name, "content-length"u8))
            {
                if (!Utf8Parser.TryParse(value, out contentLength, out used) || used != value.Length || contentLength < 0)
                {
                    throw new FormatException($"The reply's Content-Length is not a length: \"{Printable(value)}\".");
                }
            }
            else if (name.Length == 17 && Ascii.EqualsIgnoreCase(name, "transfer-encoding"u8))
            {
                // Chunked is the last coding when present; any other coding is not one a load client undoes.
                chunked = EndsWithToken(value, "chunked"u8);
            }
            else if (name.Length == 10 && Ascii.EqualsIgnoreCase(name, "connection"u8))
            {
                keepAlive = HasToken(value, "close"u8) ? false : HasToken(value, "keep-alive"u8) || keepAlive;
            }
            else if (capture.Length > 0 && Ascii.EqualsIgnoreCase(name, capture))
            {
                (capturedStart, capturedLength) = (at + valueOffset, value.Length);
            }

            at = next < 0 ? length : at + next + 2;
        }

        var framing = status < 200 || status is 204 or 304 ? Http1Framing.None
            : chunked ? Http1Framing.Chunked
            : contentLength >= 0 ? Http1Framing.Length
            : Http1Framing.UntilClose;
        return new Http1Head(status, framing, contentLength, keepAlive && framing != Http1Framing.UntilClose, capturedStart, capturedLength);
    }

    /// <summary>A chunk-size line's size (RFC 9112 §7.1), extensions after ';' ignored.</summary>
    /// <exception cref="FormatException">The line is not a hexadecimal size.</exception>
    public static int ChunkSize(ReadOnlySpan<byte> line)
    {
        var semicolon = line.IndexOf((byte)';');
        var digits = (semicolon < 0 ? line : line[..semicolon]).Trim(" \t"u8);
        return digits.Length is > 0 and <= 7 && Utf8Parser.TryParse(digits, out int size, out var used, 'x') && used == digits.Length
            ? size
            : throw new FormatException($"The reply's chunk size is not a size: \"{Printable(line)}\".");
    }

    private static bool HasToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
        {
            if (Ascii.EqualsIgnoreCase(value[range].Trim(" \t"u8), token))
            {
                return true;
            }
        }

        return false;
    }

    private static bool EndsWithToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        var comma = value.LastIndexOf((byte)',');
        return Ascii.EqualsIgnoreCase((comma < 0 ? value : value[(comma + 1)..]).Trim(" \t"u8), token);
    }

    private static string Printable(ReadOnlySpan<byte> text) =>
        Encoding.ASCII.GetString(text.Length > 80 ? text[..80] : text);
}
