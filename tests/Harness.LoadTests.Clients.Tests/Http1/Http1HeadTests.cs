using System.Text;
using Harness.LoadTests.Clients.Http1;

namespace Harness.LoadTests.Clients.Tests.Http1;

/// <summary>A response head read for what a load client needs: status, framing, whether the connection stays, one header.</summary>
public sealed class Http1HeadTests
{
    [Theory]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: 12", 200, "Length", true)]
    [InlineData("HTTP/1.1 200 OK\r\ncontent-length:12\r\nCONNECTION: Close", 200, "Length", false)]
    [InlineData("HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: gzip, chunked", 500, "Chunked", true)]
    [InlineData("HTTP/1.1 200 OK", 200, "UntilClose", false)]
    [InlineData("HTTP/1.1 204 No Content", 204, "None", true)]
    [InlineData("HTTP/1.1 100 Continue", 100, "None", true)]
    [InlineData("HTTP/1.0 200 OK\r\nContent-Length: 1", 200, "Length", false)]
    [InlineData("HTTP/1.0 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive", 200, "Length", true)]
    [InlineData("HTTP/1.1 503", 503, "UntilClose", false)]
    public void Head_IsReadForStatusFramingAndKeepAlive(string head, int status, string framing, bool keepAlive)
    {
        var parsed = Http1Head.Parse(Encoding.ASCII.GetBytes(head), []);

        Assert.Equal((status, framing, keepAlive), (parsed.Status, parsed.Framing.ToString(), parsed.KeepAlive));
    }

    [Fact]
    public void CapturedHeader_IsFoundInAnyCase_ItsValueTrimmed()
    {
        var head = Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nX-Other: 1\r\nHARNESS-Server-Time-Ms: \t 7.25 \r\nContent-Length: 0");

        var parsed = Http1Head.Parse(head, "harness-server-time-ms"u8);

        Assert.Equal("7.25", Encoding.ASCII.GetString(head, parsed.CapturedStart, parsed.CapturedLength));
    }

    [Theory]
    [InlineData("1f", 31)]
    [InlineData("0", 0)]
    [InlineData("A;ext=1", 10)]
    [InlineData("10 ", 16)]
    public void ChunkSize_IsHexadecimal_ExtensionsIgnored(string line, int size) =>
        Assert.Equal(size, Http1Head.ChunkSize(Encoding.ASCII.GetBytes(line)));

    [Theory]
    [InlineData("")]
    [InlineData("-1")]
    [InlineData("fffffffff")]
    [InlineData("0x10")]
    public void ChunkSize_ThatIsNotASize_IsRefused(string line) =>
        Assert.Throws<FormatException>(() => Http1Head.ChunkSize(Encoding.ASCII.GetBytes(line)));
}
