using System.Text;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// A unary gRPC request's header block, HPACK-encoded once per method and authority and sent as is on every call:
/// static-table fields where the table has them, literals without indexing (and without Huffman) otherwise, so the
/// block never depends on the server's decoder state.
/// </summary>
internal static class RequestHeaders
{
    /// <param name="timeout">Sent as <c>grpc-timeout</c>, so that the server gives up when the client does; null: not sent.</param>
    /// <param name="https">True over TLS: <c>:scheme https</c>, which a server checks against its connection.</param>
    public static byte[] Encode(string path, string authority, TimeSpan? timeout = null, bool https = false)
    {
        var block = new List<byte>
        {
            0x83, // :method POST (static 3)
            (byte)(https ? 0x87 : 0x86), // :scheme https (static 7) or http (static 6)
        };
        Literal(block, 4, path);                     // :path (static name 4)
        Literal(block, 1, authority);                // :authority (static name 1)
        Literal(block, 31, "application/grpc");      // content-type (static name 31)
        Literal(block, 0, "trailers", "te");         // te: trailers (new name)
        if (timeout is { } t)
        {
            Literal(block, 0, CallTimeouts.GrpcTimeoutHeader(t), "grpc-timeout"); // (new name)
        }

        var encoded = block.ToArray();
        return encoded.Length <= Http2Frames.DefaultMaxFrameSize
            ? encoded
            : throw new ArgumentException($"the request's headers take {encoded.Length} bytes, more than one HTTP/2 frame", nameof(authority));
    }

    /// <summary>An HPACK integer with an <paramref name="prefixBits"/>-bit prefix, the first byte's high bits <paramref name="flags"/>.</summary>
    internal static void Integer(List<byte> block, int value, int prefixBits, byte flags)
    {
        var max = (1 << prefixBits) - 1;
        if (value < max)
        {
            block.Add((byte)(flags | value));
            return;
        }

        block.Add((byte)(flags | max));
        for (value -= max; value >= 0x80; value >>= 7)
        {
            block.Add((byte)((value & 0x7F) | 0x80));
        }

        block.Add((byte)value);
    }

    private static void Literal(List<byte> block, int nameIndex, string value, string? name = null)
    {
        Integer(block, nameIndex, 4, 0x00);
        if (name is not null)
        {
            String(block, name);
        }

        String(block, value);
    }

    private static void String(List<byte> block, string value)
    {
        var bytes = Encoding.ASCII.GetBytes(value);
        Integer(block, bytes.Length, 7, 0x00);
        block.AddRange(bytes);
    }
}
