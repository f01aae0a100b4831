
namespace Harness.LoadTests.Tests;

/// <summary>
/// The misbehaving servers <see cref="HostileRunTests"/> runs against, by name, each on loopback at a free port: gRPC
/// ones scripted frame by frame (<see cref="ScriptedHttp2Server"/>), SOAP ones byte by byte
/// (<see cref="ScriptedHttpServer"/>). Every loop a script runs is bounded, and each answers every connection and call
/// the same way, so that no call of a run can succeed.
/// </summary>
internal sealed class HostileServers : IAsyncDisposable
{
    // Calls one gRPC connection answers at most; far more than a short run makes.
    private const int MaxCallsPerConnection = 100_000;

    // Chunks of 16 KB an endless body sends at most (128 MB): far past any bound, so the client is what stops it.
    private const int EndlessChunks = 8_192;

    private readonly IAsyncDisposable _server;
    private readonly Func<int> _accepted;

    private HostileServers(IAsyncDisposable server, Uri address, Func<int> accepted)
    {
        _server = server;
        Address = address;
        _accepted = accepted;
    }

    public Uri Address { get; }

    /// <summary>Connections the server accepted.</summary>
    public int Accepted => _accepted();

    public static HostileServers Start(string name) => name switch
    {
        // A PING of 7 bytes (it must be 8) in answer to the first call: FRAME_SIZE_ERROR, a protocol error on every connection.
        "grpc-frame-size" => Grpc(async c =>
        {
            await c.NextRequestAsync();
            await c.SendAsync(H2.Frame(H2.Ping, 0, 0, new byte[7]));
            await c.HoldAsync();
        }),

        // GOAWAY ENHANCE_YOUR_CALM, last stream 0, in answer to the first call: every connection refused as it is used.
        "grpc-goaway" => Grpc(async c =>
        {
            await c.NextRequestAsync();
            await c.SendAsync(H2.Frame(H2.GoAway, 0, 0, [0, 0, 0, 0, 0, 0, 0, 0xb]));
            await c.HoldAsync();
        }),

        // Every reply's headers an HPACK bomb: 2,500 bytes naming a static-table field of 60 bytes, 150 KB decoded.
        "grpc-hpack-bomb" => Grpc(c => AnswerEachAsync(c, id =>
            [H2.HeadersFrame(id, [.. H2.ResponseHeaders(), .. Enumerable.Repeat((byte)0x90, 2_500)], endStream: true)])),

        // Every reply's message claims 2^31-1 bytes, and 16 KB of them follow at once.
        "grpc-length-2g" => Grpc(c => AnswerEachAsync(c, id =>
            [H2.HeadersFrame(id, H2.ResponseHeaders()), H2.DataFrame(id, H2.Message(new byte[16_000], declaredLength: int.MaxValue))])),

        "soap-endless-chunked" => Soap(async e =>
        {
            await e.WriteAsync("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n");
            await e.RepeatAsync($"4000\r\n{new string('x', 0x4000)}\r\n", EndlessChunks);
        }),

        "soap-continue-forever" => Soap(e => e.RepeatAsync("HTTP/1.1 100 Continue\r\n\r\n", 100_000)),

        // 1 GiB announced, a byte every 50 ms sent (for at most 10 s).
        "soap-length-1g-slow" => Soap(async e =>
        {
            await e.WriteAsync($"HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {1L << 30}\r\n\r\n");
            await e.RepeatAsync("x", 200, TimeSpan.FromMilliseconds(50));
        }),

        _ => throw new ArgumentException($"no hostile server named '{name}'", nameof(name)),
    };

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private static HostileServers Grpc(Func<ScriptedHttp2Server.ServerConnection, Task> answer)
    {
        var server = new ScriptedHttp2Server(async c =>
        {
            await c.SendAsync(H2.ServerSettings(), H2.SettingsAck());
            await answer(c);
        });
        return new HostileServers(server, server.Address, () => server.Accepted);
    }

    private static HostileServers Soap(Func<ScriptedHttpServer.Exchange, Task> answer)
    {
        var server = new ScriptedHttpServer(answer);
        return new HostileServers(server, server.Address, () => server.Accepted);
    }

    private static async Task AnswerEachAsync(ScriptedHttp2Server.ServerConnection connection, Func<int, byte[][]> frames)
    {
        for (var i = 0; i < MaxCallsPerConnection; i++)
        {
            var id = await connection.NextRequestAsync();
            await connection.SendAsync(frames(id));
        }
    }
}
