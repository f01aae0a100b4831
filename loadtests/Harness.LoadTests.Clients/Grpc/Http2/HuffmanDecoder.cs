namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>
/// HPACK's Huffman code (RFC 7541 Appendix B), decoding only: the runner never Huffman-encodes its few request
/// headers. The code is canonical, so each symbol's bit length is all the table needs; the codes are rebuilt from
/// them and walked bit by bit through a small tree. Kestrel sends raw strings, so this path is rare and kept simple.
/// </summary>
internal static class HuffmanDecoder
{
    private const int EndOfString = 256;

    /// <summary>The code length of each symbol 0-255 and of EOS (256), RFC 7541 Appendix B.</summary>
    internal static ReadOnlySpan<byte> CodeLengths =>
    [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    ];

    // Node i's children are at Tree[2i] (bit 0) and Tree[2i + 1] (bit 1): a positive value is the next node, a
    // negative one -(symbol + 1), zero an unused branch (the root is never a child).
    private static readonly int[] Tree = BuildTree();

    /// <summary>The codes of the symbols, rebuilt canonically: by length, then by symbol (tests check them against RFC 7541).</summary>
    internal static (uint Code, int Length)[] Codes()
    {
        var lengths = CodeLengths;
        var codes = new (uint Code, int Length)[lengths.Length];
        uint code = 0;
        var previous = 0;
        for (var length = 1; length <= 30; length++)
        {
            for (var symbol = 0; symbol < lengths.Length; symbol++)
            {
                if (lengths[symbol] != length)
                {
                    continue;
                }

                code <<= length - previous;
                previous = length;
                codes[symbol] = (code, length);
                code++;
            }
        }

        return codes;
    }

    /// <summary>Decodes <paramref name="source"/> into <paramref name="destination"/>, growing it when needed; returns the length written.</summary>
    /// <exception cref="HpackException">EOS inside the string, padding longer than 7 bits or not all ones, or a code that is not in the table.</exception>
    public static int Decode(ReadOnlySpan<byte> source, ref byte[] destination)
    {
        var written = 0;
        var node = 0;
        var bitsSinceSymbol = 0;
        var allOnes = true;
        foreach (var b in source)
        {
            for (var bit = 7; bit >= 0; bit--)
            {
                var one = (b >> bit) & 1;
                var next = Tree[(2 * node) + one];
                bitsSinceSymbol++;
                allOnes &= one == 1;
                if (next > 0)
                {
                    node = next;
                    continue;
                }

                if (next == 0)
                {
                    throw new HpackException("a Huffman code that is not in the table");
                }

                var symbol = -next - 1;
                if (symbol == EndOfString)
                {
                    throw new HpackException("EOS inside a Huffman-encoded string");
                }

                if (written == destination.Length)
                {
                    Array.Resize(ref destination, Math.Max(64, destination.Length * 2));
                }

                destination[written++] = (byte)symbol;
                node = 0;
                bitsSinceSymbol = 0;
                allOnes = true;
            }
        }

        // The string ends with the most significant bits of EOS (all ones), fewer than 8 of them.
        if (bitsSinceSymbol > 7 || !allOnes)
        {
            throw new HpackException("bad padding at the end of a Huffman-encoded string");
        }

        return written;
    }

    private static int[] BuildTree()
    {
        var tree = new int[2 * 512];
        var nodes = 1;
        var codes = Codes();
        for (var symbol = 0; symbol < codes.Length; symbol++)
        {
            var (code, length) = codes[symbol];
            var node = 0;
            for (var i = length - 1; i > 0; i--)
            {
                var slot = (2 * node) + (int)((code >> i) & 1);
                if (tree[slot] == 0)
                {
                    tree[slot] = nodes++;
                }

                node = tree[slot];
            }

            tree[(2 * node) + (int)(code & 1)] = -(symbol + 1);
        }

        return tree;
    }
}
