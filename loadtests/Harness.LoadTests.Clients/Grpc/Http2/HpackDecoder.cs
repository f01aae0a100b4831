using System.Text;

namespace Harness.LoadTests.Clients.Grpc.Http2;

/// <summary>A malformed header block: a connection error (COMPRESSION_ERROR), since the decoding context is lost.</summary>
internal sealed class HpackException(string message) : Exception($"HPACK: {message}");

/// <summary>Receives the fields of a decoded header block; the spans are valid only during the call.</summary>
internal interface IHeaderSink
{
    void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value);
}

/// <summary>
/// An HPACK decoder (RFC 7541) for one connection's response header blocks: the static table, a dynamic table,
/// integers, raw and Huffman-coded literals. The runner advertises SETTINGS_HEADER_TABLE_SIZE 0, but a server may use
/// the default 4,096 bytes until it has acknowledged that (<see cref="OnSettingsAcknowledged"/>), so the table is kept
/// properly up to 4,096 bytes until then, and to what was advertised after: a size update above it is a
/// COMPRESSION_ERROR. Every header block of the connection goes through it, even a block for a stream the runner has
/// forgotten or refused, so that the table stays in step with the server's.
/// </summary>
internal sealed class HpackDecoder
{
    /// <summary>The largest dynamic table accepted before the server acknowledges the runner's SETTINGS: the protocol's default.</summary>
    public const int MaxTableSize = 4096;

    private readonly List<(byte[] Name, byte[] Value)> _dynamic = []; // oldest first
    private int _tableSize;
    private int _maxTableSize = MaxTableSize;
    private int _allowedTableSize = MaxTableSize;
    private byte[] _nameScratch = new byte[64];
    private byte[] _valueScratch = new byte[256];

    /// <summary>The dynamic table's size in RFC 7541 terms (32 + name + value per entry).</summary>
    public int TableSize => _tableSize;

    /// <summary>The dynamic table's entry count.</summary>
    public int TableCount => _dynamic.Count;

    /// <summary>
    /// Decodes one complete header block (HEADERS and its CONTINUATIONs), passing each field to <paramref name="sink"/>
    /// if any, while the list's decoded size (name + value + 32 per field, RFC 7541 4.1) stays within
    /// <paramref name="maxListSize"/>; past it the block is still decoded, for the table, but no field is passed on.
    /// </summary>
    /// <returns>False when the list was larger than <paramref name="maxListSize"/>.</returns>
    /// <exception cref="HpackException">The block is malformed.</exception>
    public bool Decode(ReadOnlySpan<byte> block, IHeaderSink? sink, int maxListSize = int.MaxValue)
    {
        var position = 0;
        long listSize = 0;
        while (position < block.Length)
        {
            var b = block[position];
            (byte[] Name, byte[] Value) indexed;
            if ((b & 0x80) != 0)
            {
                indexed = Entry(ReadInteger(block, ref position, 7));
                listSize += 32 + indexed.Name.Length + indexed.Value.Length;
                if (listSize > maxListSize)
                {
                    sink = null;
                }

                sink?.OnHeader(indexed.Name, indexed.Value);
            }
            else if ((b & 0xC0) == 0x40)
            {
                listSize += ReadLiteral(block, ref position, 6, ref sink, maxListSize - listSize, index: true);
            }
            else if ((b & 0xE0) == 0x20)
            {
                if (listSize > 0)
                {
                    throw new HpackException("a dynamic table size update after a header field");
                }

                var size = ReadInteger(block, ref position, 5);
                if (size > _allowedTableSize)
                {
                    throw new HpackException($"a dynamic table size update to {size} bytes, above the {_allowedTableSize} allowed");
                }

                _maxTableSize = size;
                Evict(0);
            }
            else
            {
                // 0000xxxx without indexing, 0001xxxx never indexed: the same to a decoder.
                listSize += ReadLiteral(block, ref position, 4, ref sink, maxListSize - listSize, index: false);
            }
        }

        return listSize <= maxListSize;
    }

    /// <summary>
    /// The server has acknowledged the runner's SETTINGS: its encoder now keeps to the table size the runner
    /// advertised, which it must announce with a size update at the start of its next block (RFC 7541 4.2).
    /// </summary>
    public void OnSettingsAcknowledged()
    {
        _allowedTableSize = Http2Frames.AdvertisedHeaderTableSize;
        _maxTableSize = Math.Min(_maxTableSize, _allowedTableSize);
        Evict(0);
    }

    /// <summary>An HPACK integer with an <paramref name="prefixBits"/>-bit prefix (RFC 7541 5.1), at <paramref name="position"/>.</summary>
    internal static int ReadInteger(ReadOnlySpan<byte> block, ref int position, int prefixBits)
    {
        var max = (1 << prefixBits) - 1;
        var value = block[position++] & max;
        if (value < max)
        {
            return value;
        }

        for (var shift = 0; ; shift += 7)
        {
            if (position >= block.Length)
            {
                throw new HpackException("an integer cut short");
            }

            if (shift > 21)
            {
                throw new HpackException("an integer too large");
            }

            var next = block[position++];
            value += (next & 0x7F) << shift;
            if ((next & 0x80) == 0)
            {
                return value;
            }
        }
    }

    /// <summary>A literal field; returns its decoded size, and drops <paramref name="sink"/> if that is more than <paramref name="room"/>.</summary>
    private int ReadLiteral(ReadOnlySpan<byte> block, ref int position, int prefixBits, ref IHeaderSink? sink, long room, bool index)
    {
        var nameIndex = ReadInteger(block, ref position, prefixBits);
        ReadOnlySpan<byte> name;
        if (nameIndex == 0)
        {
            name = ReadString(block, ref position, ref _nameScratch, out var start, out var length)
                ? block.Slice(start, length)
                : _nameScratch.AsSpan(0, length);
        }
        else
        {
            name = Entry(nameIndex).Name;
        }

        var value = ReadString(block, ref position, ref _valueScratch, out var valueStart, out var valueLength)
            ? block.Slice(valueStart, valueLength)
            : _valueScratch.AsSpan(0, valueLength);
        var size = 32 + name.Length + value.Length;
        if (size > room)
        {
            sink = null;
        }

        sink?.OnHeader(name, value);
        if (index)
        {
            Add(name, value);
        }

        return size;
    }

    /// <summary>A string literal: true when sent as is (at <paramref name="start"/> in the block), false when Huffman-decoded into <paramref name="scratch"/>.</summary>
    private static bool ReadString(ReadOnlySpan<byte> block, ref int position, ref byte[] scratch, out int start, out int length)
    {
        if (position >= block.Length)
        {
            throw new HpackException("a string literal cut short");
        }

        var huffman = (block[position] & 0x80) != 0;
        length = ReadInteger(block, ref position, 7);
        if (length > block.Length - position)
        {
            throw new HpackException("a string literal longer than its header block");
        }

        start = position;
        position += length;
        if (!huffman)
        {
            return true;
        }

        length = HuffmanDecoder.Decode(block.Slice(start, length), ref scratch);
        return false;
    }

    private (byte[] Name, byte[] Value) Entry(int index)
    {
        if (index <= 0)
        {
            throw new HpackException("index 0");
        }

        if (index <= HpackStaticTable.Count)
        {
            return HpackStaticTable.Entry(index);
        }

        var dynamicIndex = index - HpackStaticTable.Count - 1; // 0 = the newest
        return dynamicIndex < _dynamic.Count
            ? _dynamic[_dynamic.Count - 1 - dynamicIndex]
            : throw new HpackException($"index {index} beyond the dynamic table ({_dynamic.Count} entries)");
    }

    private void Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var size = 32 + name.Length + value.Length;
        if (size > _maxTableSize)
        {
            // Not an error: a field larger than the table empties it (RFC 7541 4.4).
            _dynamic.Clear();
            _tableSize = 0;
            return;
        }

        Evict(size);
        _dynamic.Add((name.ToArray(), value.ToArray()));
        _tableSize += size;
    }

    /// <summary>Drops the oldest entries until <paramref name="room"/> more bytes fit.</summary>
    private void Evict(int room)
    {
        var drop = 0;
        while (_tableSize + room > _maxTableSize && drop < _dynamic.Count)
        {
            _tableSize -= 32 + _dynamic[drop].Name.Length + _dynamic[drop].Value.Length;
            drop++;
        }

        _dynamic.RemoveRange(0, drop);
    }
}

/// <summary>RFC 7541 Appendix A.</summary>
internal static class HpackStaticTable
{
    private static readonly (byte[] Name, byte[] Value)[] Entries = Build(
        ":authority", "", ":method", "GET", ":method", "POST", ":path", "/", ":path", "/index.html", ":scheme", "http",
        ":scheme", "https", ":status", "200", ":status", "204", ":status", "206", ":status", "304", ":status", "400",
        ":status", "404", ":status", "500", "accept-charset", "", "accept-encoding", "gzip, deflate", "accept-language", "",
        "accept-ranges", "", "accept", "", "access-control-allow-origin", "", "age", "", "allow", "", "authorization", "",
        "cache-control", "", "content-disposition", "", "content-encoding", "", "content-language", "", "content-length", "",
        "content-location", "", "content-range", "", "content-type", "", "cookie", "", "date", "", "etag", "", "expect", "",
        "expires", "", "from", "", "host", "", "if-match", "", "if-modified-since", "", "if-none-match", "", "if-range", "",
        "if-unmodified-since", "", "last-modified", "", "link", "", "location", "", "max-forwards", "", "proxy-authenticate", "",
        "proxy-authorization", "", "range", "", "referer", "", "refresh", "", "retry-after", "", "server", "", "set-cookie", "",
        "strict-transport-security", "", "transfer-encoding", "", "user-agent", "", "vary", "", "via", "", "www-authenticate", "");

    public static int Count => Entries.Length;

    /// <param name="index">1-based, as HPACK numbers it.</param>
    public static (byte[] Name, byte[] Value) Entry(int index) => Entries[index - 1];

    private static (byte[] Name, byte[] Value)[] Build(params string[] pairs)
    {
        var entries = new (byte[] Name, byte[] Value)[pairs.Length / 2];
        for (var i = 0; i < entries.Length; i++)
        {
            entries[i] = (Encoding.ASCII.GetBytes(pairs[2 * i]), Encoding.ASCII.GetBytes(pairs[(2 * i) + 1]));
        }

        return entries;
    }
}
