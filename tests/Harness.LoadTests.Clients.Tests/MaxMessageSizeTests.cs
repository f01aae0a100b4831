using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;

namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// <c>--max-message-size</c> reaches every client a run makes (<see cref="HarnessClients"/>, as the series and the
/// runner's warm-up make them): a reply of 2 KiB fails under a bound of 1 KiB, gRPC's as RESOURCE_EXHAUSTED and the lean
/// SOAP client's as <c>response-too-large</c>, and is read under the default. Each server is scripted on loopback.
/// </summary>
public sealed class MaxMessageSizeTests
{
    private const int OneKiB = 1024;
    private const int ReplyPadding = 2048;
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(15);

    [Theory]
    [InlineData(GrpcClients.Lean)]
    [InlineData(GrpcClients.GrpcNet)]
    public async Task GrpcReplyOf2KiB_FailsAsResourceExhausted_Under1KiB_AndIsReadByDefault(string grpcClient)
    {
        // Arrange: every call answered with Result = 89 and 2 KiB of a field the parser skips.
        await using var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            for (var call = 0; call < 10; call++)
            {
                var id = await c.NextRequestAsync();
                await c.SendAsync(
                    H2.HeadersFrame(id, H2.ResponseHeaders()),
                    H2.DataFrame(id, H2.Message([0x08, 0x59, .. PaddingField(ReplyPadding)])),
                    H2.HeadersFrame(id, H2.Trailers("0"), endStream: true));
            }

            await c.HoldAsync();
        });
        using var bounded = HarnessClients.Grpc(server.Address, grpcClient, maxMessageSize: OneKiB);
        using var byDefault = HarnessClients.Grpc(server.Address, grpcClient);

        // Act
        var failure = await Record.ExceptionAsync(() => bounded.ComputeAsync(1).WaitAsync(Bound));
        var reply = await byDefault.ComputeAsync(1).WaitAsync(Bound);

        // Assert
        Assert.NotNull(failure);
        Assert.Equal("RESOURCE_EXHAUSTED", FailureStatus.Of(failure));
        Assert.Equal(89, reply.Result);
    }

    [Theory]
    [InlineData(SoapClients.Lean, "response-too-large")]
    [InlineData(SoapClients.Wcf, "soap-communication")]
    public async Task SoapReplyOf2KiB_FailsUnder1KiB_AndIsReadByDefault(string soapClient, string status)
    {
        // Arrange: a Compute reply padded with 2 KiB of white space.
        var envelope =
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>" + new string(' ', ReplyPadding)
            + "<ComputeResponse xmlns=\"http://tempuri.org/\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">"
            + "<Result>89</Result><ThreadId>6</ThreadId><ElapsedMs>12.5</ElapsedMs></ComputeResponse></s:Body></s:Envelope>";
        await using var server = new ScriptedHttpServer(e => e.WriteAsync(
            $"HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {envelope.Length}\r\n\r\n{envelope}"));
        var address = new Uri(server.Address, "/");
        using var bounded = HarnessClients.Soap(address, soapClient, maxMessageSize: OneKiB);
        using var byDefault = HarnessClients.Soap(address, soapClient);

        // Act
        var failure = await Record.ExceptionAsync(() => bounded.ComputeAsync(1).WaitAsync(Bound));
        var reply = await byDefault.ComputeAsync(1).WaitAsync(Bound);

        // Assert
        Assert.NotNull(failure);
        Assert.Equal(status, FailureStatus.Of(failure));
        Assert.Equal(89, reply.Result);
    }

    /// <summary>Field 15, length-delimited, of <paramref name="length"/> zero bytes: an unknown field a parser skips.</summary>
    private static byte[] PaddingField(int length)
    {
        List<byte> field = [(15 << 3) | 2];
        for (var left = (uint)length; ; left >>= 7)
        {
            field.Add((byte)(left < 0x80 ? left : (left & 0x7F) | 0x80));
            if (left < 0x80)
            {
                break;
            }
        }

        return [.. field, .. new byte[length]];
    }
}
