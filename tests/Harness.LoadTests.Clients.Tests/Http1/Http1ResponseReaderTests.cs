using System.Text;
using Harness.LoadTests.Clients.Http1;

namespace Harness.LoadTests.Clients.Tests.Http1;

/// <summary>
/// The response reader fed as a socket might deliver: the whole response at once, a byte at a time, and in pieces of
/// every size from 2 to 9; it must find the same response however the bytes arrive, and never before the last one.
/// </summary>
public sealed class Http1ResponseReaderTests
{
    public static TheoryData<string, int, string, bool> Responses => new()
    {
        { "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nHarness-Server-Time-Ms: 3\r\n\r\nhello", 200, "hello", true },
        { "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 500 Oops\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno", 500, "no", false },
        { "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n1;x=1\r\nd\r\n0\r\nT: 1\r\n\r\n", 200, "abcd", true },
        { "HTTP/1.1 204 No Content\r\n\r\n", 204, "", true },
    };

    [Theory]
    [MemberData(nameof(Responses))]
    public void Response_IsFoundTheSame_HoweverItsBytesArrive(string text, int status, string body, bool keepAlive)
    {
        var bytes = Encoding.ASCII.GetBytes(text);
        foreach (var piece in new[] { bytes.Length, 1, 2, 3, 4, 5, 6, 7, 8, 9 })
        {
            // Arrange
            var buffer = new byte[bytes.Length];
            var reader = new Http1ResponseReader();
            reader.Reset("harness-server-time-ms"u8.ToArray());
            Http1Response response = default;
            var done = false;

            // Act: the pieces arrive one after another; the reader looks after each (and may drop a chunked body's framing).
            for (var (sent, filled) = (0, 0); sent < bytes.Length;)
            {
                Assert.False(done, $"piece {piece}: the reader called the response whole at {sent} of {bytes.Length} bytes");
                var next = Math.Min(piece, bytes.Length - sent);
                bytes.AsSpan(sent, next).CopyTo(buffer.AsSpan(filled));
                (sent, filled) = (sent + next, filled + next);
                done = reader.TryRead(buffer, ref filled, out response);
            }

            // Assert
            Assert.True(done, $"piece {piece}: the reader did not find the whole response");
            Assert.Equal(status, response.Status);
            Assert.Equal(body, Encoding.ASCII.GetString(buffer, response.BodyStart, response.BodyLength));
            Assert.Equal(keepAlive, response.KeepAlive);
        }
    }

    [Fact]
    public void BytesPastTheResponse_MeanTheConnectionIsNotReused()
    {
        var bytes = Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n");
        var reader = new Http1ResponseReader();
        reader.Reset([]);

        var filled = bytes.Length;
        Assert.True(reader.TryRead(bytes, ref filled, out var response));

        Assert.Equal("ok", Encoding.ASCII.GetString(bytes, response.BodyStart, response.BodyLength));
        Assert.False(response.KeepAlive);
    }

    [Fact]
    public void BodyUntilClose_IsWhatArrivedBeforeTheClose()
    {
        var bytes = Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\n\r\nto the end");
        var reader = new Http1ResponseReader();
        reader.Reset([]);

        var filled = bytes.Length;
        Assert.False(reader.TryRead(bytes, ref filled, out _));
        Assert.True(reader.EndsAtClose);
        var response = reader.Closed(bytes.Length);

        Assert.Equal("to the end", Encoding.ASCII.GetString(bytes, response.BodyStart, response.BodyLength));
        Assert.False(response.KeepAlive);
    }

    [Fact]
    public void LongerLengthThanTheClientTakes_IsRefusedByItsLimit_BeforeAnyOfTheBody()
    {
        var bytes = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Length: {Http1ResponseReader.DefaultMaxBodySize + 1L}\r\n\r\n");
        var reader = new Http1ResponseReader();
        reader.Reset([]);
        var filled = bytes.Length;

        var ex = Assert.Throws<HttpIOException>(() => reader.TryRead(bytes, ref filled, out _));

        Assert.Equal(HttpRequestError.ConfigurationLimitExceeded, ex.HttpRequestError);
        Assert.Contains($"{Http1ResponseReader.DefaultMaxBodySize} bytes", ex.Message, StringComparison.Ordinal);
    }
}
