using System.Text;
using Harness.LoadTests.Clients.Grpc.Http2;

namespace Harness.LoadTests.Clients.Tests.Http2;

/// <summary>The lean gRPC client's HPACK decoder on RFC 7541's own examples (Appendix C).</summary>
public sealed class HpackDecoderTests
{
    [Theory]
    [InlineData("0a", 5, 10)]          // C.1.1: 10 in a 5-bit prefix
    [InlineData("1f9a0a", 5, 1337)]    // C.1.2: 1337 in a 5-bit prefix
    [InlineData("2a", 8, 42)]          // C.1.3: 42 at an octet boundary
    public void Integer_IsDecodedAsRfc7541C1Says(string hex, int prefixBits, int expected)
    {
        var position = 0;

        var value = HpackDecoder.ReadInteger(Convert.FromHexString(hex), ref position, prefixBits);

        Assert.Equal(expected, value);
        Assert.Equal(hex.Length / 2, position);
    }

    [Fact]
    public void LiteralWithIndexing_IsAddedToTheDynamicTable_C21()
    {
        var decoder = new HpackDecoder();
        var sink = new Fields();

        decoder.Decode(Convert.FromHexString("400a637573746f6d2d6b65790d637573746f6d2d686561646572"), sink);

        Assert.Equal(["custom-key: custom-header"], sink.All);
        Assert.Equal(55, decoder.TableSize);
    }

    [Fact]
    public void LiteralWithoutIndexing_AndNeverIndexed_LeaveTheTableAlone_C22_C23()
    {
        var decoder = new HpackDecoder();
        var sink = new Fields();

        decoder.Decode(Convert.FromHexString("040c2f73616d706c652f70617468"), sink);
        decoder.Decode(Convert.FromHexString("100870617373776f726406736563726574"), sink);

        Assert.Equal([":path: /sample/path", "password: secret"], sink.All);
        Assert.Equal(0, decoder.TableCount);
    }

    [Fact]
    public void RequestsWithHuffman_ShareTheDynamicTable_C4()
    {
        // Arrange: RFC 7541 C.4, three requests on one connection, Huffman-coded.
        var decoder = new HpackDecoder();
        var first = new Fields();
        var second = new Fields();
        var third = new Fields();

        // Act
        decoder.Decode(Convert.FromHexString("828684418cf1e3c2e5f23a6ba0ab90f4ff"), first);
        decoder.Decode(Convert.FromHexString("828684be5886a8eb10649cbf"), second);
        decoder.Decode(Convert.FromHexString("828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"), third);

        // Assert
        Assert.Equal([":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"], first.All);
        Assert.Equal([":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache"], second.All);
        Assert.Equal([":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"], third.All);
        Assert.Equal(164, decoder.TableSize);
        Assert.Equal(3, decoder.TableCount);
    }

    [Fact]
    public void TableSizeUpdate_EvictsEntries_AndALargerOneThanTheDefaultIsRefused()
    {
        var decoder = new HpackDecoder();
        decoder.Decode(Convert.FromHexString("400a637573746f6d2d6b65790d637573746f6d2d686561646572"), null);

        decoder.Decode([0x20], null); // size update to 0

        Assert.Equal(0, decoder.TableCount);
        Assert.Throws<HpackException>(() => decoder.Decode(Convert.FromHexString("3fe21f"), null)); // 4097 > 4096
    }

    [Fact]
    public void AfterTheSettingsAck_TheTableIsWhatTheClientAdvertised_AndALargerUpdateIsRefused()
    {
        var decoder = new HpackDecoder();
        decoder.Decode(Convert.FromHexString("400a637573746f6d2d6b65790d637573746f6d2d686561646572"), null);

        decoder.OnSettingsAcknowledged();

        Assert.Equal(0, decoder.TableCount);
        decoder.Decode([0x20], null); // size update to 0: allowed
        var ex = Assert.Throws<HpackException>(() => decoder.Decode([0x21], null)); // to 1: above the 0 advertised
        Assert.Contains("above the 0 allowed", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TableSizeUpdate_AfterAField_IsRefused()
    {
        var decoder = new HpackDecoder();

        Assert.Throws<HpackException>(() => decoder.Decode([0x88, 0x20], null)); // :status 200, then a size update
    }

    [Fact]
    public void HeaderList_AboveTheLimit_StopsReachingTheSink_AndIsReported()
    {
        // Arrange: ":status: 200" (42 bytes decoded, RFC 7541 4.1) three times, against a limit of 100.
        var decoder = new HpackDecoder();
        var sink = new Fields();

        // Act
        var within = decoder.Decode([0x88, 0x88, 0x88], sink, maxListSize: 100);

        // Assert
        Assert.False(within);
        Assert.Equal([":status: 200", ":status: 200"], sink.All);
        Assert.True(decoder.Decode([0x88, 0x88], new Fields(), maxListSize: 100));
    }

    [Fact]
    public void Eviction_DropsTheOldestEntries_WhenTheTableIsFull()
    {
        // Arrange: a 112-byte table holds two of these 56-byte entries.
        var decoder = new HpackDecoder();
        var sink = new Fields();
        decoder.Decode(Convert.FromHexString("3f51"), null); // size update to 112

        // Act: three entries added; then index 62 (the newest) and 63 (the one before).
        decoder.Decode(Convert.FromHexString("400a637573746f6d2d6b65790e637573746f6d2d68656164657230"), null);
        decoder.Decode(Convert.FromHexString("400a637573746f6d2d6b65790e637573746f6d2d68656164657231"), null);
        decoder.Decode(Convert.FromHexString("400a637573746f6d2d6b65790e637573746f6d2d68656164657232"), null);
        decoder.Decode([0xbe, 0xbf], sink);

        // Assert
        Assert.Equal(2, decoder.TableCount);
        Assert.Equal(["custom-key: custom-header2", "custom-key: custom-header1"], sink.All);
        Assert.Throws<HpackException>(() => decoder.Decode([0xc0], null)); // index 64 was evicted
    }

    [Fact]
    public void HuffmanCodes_AreRfc7541sAndFormAcompleteCode()
    {
        var codes = HuffmanDecoder.Codes();

        // A few of Appendix B's codes: '0', ' ', 'a', '~', EOS.
        Assert.Equal((0x0u, 5), codes['0']);
        Assert.Equal((0x14u, 6), codes[' ']);
        Assert.Equal((0x3u, 5), codes['a']);
        Assert.Equal((0x1ffdu, 13), codes['~']);
        Assert.Equal((0x3fffffffu, 30), codes[256]);
        Assert.Equal(1.0, codes.Sum(c => Math.Pow(2, -c.Length)), 12);
    }

    [Fact]
    public void HuffmanString_WithBadPadding_IsRefused()
    {
        var destination = Array.Empty<byte>();

        // "a" is 00011 then padding must be 111: 00011111 = 0x1f is right, 00011000 = 0x18 is not.
        Assert.Equal(1, HuffmanDecoder.Decode([0x1f], ref destination));
        Assert.Throws<HpackException>(() => HuffmanDecoder.Decode([0x18], ref destination));
    }

    private sealed class Fields : IHeaderSink
    {
        public List<string> All { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value) =>
            All.Add($"{Encoding.ASCII.GetString(name)}: {Encoding.ASCII.GetString(value)}");
    }
}
