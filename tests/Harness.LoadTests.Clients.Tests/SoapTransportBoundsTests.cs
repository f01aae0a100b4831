using System.Text;
using Harness.LoadTests.Clients.Soap;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// The SOAP transport's bound on a reply, under both failure namings and both HTTP clients (the runner's own for
/// http://, HttpClient for https://, here tried over plain HTTP with the same settings): a reply past it is
/// <c>response-too-large</c>, while what the clients read from a reply within it (a fault's code, the server's time
/// header) is still read when the server frames it unusually (interim responses, small chunks).
/// </summary>
public sealed class SoapTransportBoundsTests
{
    private const string Envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{0}</s:Body></s:Envelope>";

    [Fact]
    public async Task LeanClient_ReplyPastTheBound_IsResponseTooLarge_AndBackedOffAsAClosedConnection()
    {
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            $"HTTP/1.1 200 OK\r\nContent-Length: {SoapTransport.DefaultMaxReplySize + 1}\r\n\r\n<s:Envelope"));
        using var client = new LeanSoapClient(server.Address);

        var ex = await Record.ExceptionAsync(() => client.ComputeAsync(1));

        Assert.NotNull(ex);
        Assert.Equal("response-too-large", FailureStatus.Of(ex));
        // The client closed the connection on it: the engine backs off, as for a broken connection.
        Assert.True(FailureStatus.IsConnectionFailure(ex));
    }

    [Fact]
    public async Task LeanClient_FaultAfterInterimResponses_InSmallChunks_IsCountedByItsCode()
    {
        var fault = Fault("s:Client");
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 500 Internal Server Error\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n"
            + Chunked(fault, 7),
            piece: 64));
        using var client = new LeanSoapClient(server.Address);

        var ex = await Record.ExceptionAsync(() => client.ComputeAsync(1));

        Assert.NotNull(ex);
        Assert.Equal("soap-fault-Client", FailureStatus.Of(ex));
    }

    [Fact]
    public async Task CallClient_ReadsTheServersTimeHeader_AndTheWholeReply_AfterAnInterimResponse()
    {
        var reply = string.Format(System.Globalization.CultureInfo.InvariantCulture, Envelope, "<AddResponse><Result>3</Result></AddResponse>");
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nharness-server-time-ms: 7.25\r\nTransfer-Encoding: chunked\r\n\r\n" + Chunked(reply, 5)));
        using var client = new SoapCallClient(server.Address, "urn:Add", SoapVersion.Soap11, []);

        var answer = await client.SendAsync(Encoding.UTF8.GetBytes(reply), CancellationToken.None);

        Assert.Equal(TimeSpan.FromMilliseconds(7.25), answer.ServerTime);
        Assert.Equal(reply, Encoding.UTF8.GetString(answer.Body));
    }

    [Fact]
    public async Task CallClient_FaultPastTheBound_IsResponseTooLarge_NotItsCode()
    {
        var fault = Fault("s:Client") + new string(' ', 2000);
        await using var server = new ScriptedHttpServer(e => e.WriteAsync($"HTTP/1.1 500 Oops\r\nContent-Length: {fault.Length}\r\n\r\n{fault}"));
        using var transport = new SoapTransport(server.Address, SoapVersion.Soap11, [], SoapFailureNames.ByCode, maxReplySize: 1000);

        var ex = await Record.ExceptionAsync(() => transport.PostAsync([], transport.Prepare("urn:a"), static (_, _) => 0, CancellationToken.None));

        Assert.NotNull(ex);
        Assert.Equal("response-too-large", FailureStatus.Of(ex));
    }

    [Theory]
    [InlineData(false, 1000, true)]
    [InlineData(false, 1001, false)]
    [InlineData(true, 1000, true)]
    [InlineData(true, 1001, false)]
    public async Task HttpsClient_TakesABodyUpToTheBound_AndNamesOneLongerAlike(bool chunked, int size, bool taken)
    {
        var body = new string('b', size);
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(chunked
            ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + Chunked(body, 300)
            : $"HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n{body}"));
        using var client = SoapTransport.NewHttpsClient(1000, Harness.LoadTests.Clients.CallTimeouts.Default);

        var ex = await Record.ExceptionAsync(() => client.PostAsync(server.Address, new ByteArrayContent("x"u8.ToArray())));

        if (taken)
        {
            Assert.Null(ex);
        }
        else
        {
            Assert.NotNull(ex);
            Assert.Equal("response-too-large", FailureStatus.Of(ex));
        }
    }

    private static string Fault(string code) => string.Format(
        System.Globalization.CultureInfo.InvariantCulture,
        Envelope,
        $"<s:Fault><faultcode>{code}</faultcode><faultstring>refused</faultstring></s:Fault>");

    /// <summary><paramref name="text"/> as chunks of <paramref name="size"/> bytes (ASCII), then the last chunk.</summary>
    private static string Chunked(string text, int size)
    {
        var chunks = new StringBuilder();
        for (var at = 0; at < text.Length; at += size)
        {
            var part = text.Substring(at, Math.Min(size, text.Length - at));
            chunks.Append(System.Globalization.CultureInfo.InvariantCulture, $"{part.Length:x}\r\n{part}\r\n");
        }

        return chunks.Append("0\r\n\r\n").ToString();
    }
}
