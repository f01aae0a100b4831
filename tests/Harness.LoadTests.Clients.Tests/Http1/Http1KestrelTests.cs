using System.Collections.Concurrent;
using System.Text;
using Harness.LoadTests.Clients.Http1;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Http1;

/// <summary>
/// The HTTP/1.1 client against real Kestrel: calls in flight at once, each on a connection of its own and kept alive
/// for the next, each reply its own request's (by length and by chunks), over TCP and a Unix domain socket.
/// </summary>
public sealed class Http1KestrelTests
{
    [Fact]
    public async Task ConcurrentCalls_EachGetTheirOwnReply_OverAsManyConnectionsAsCallsInFlight()
    {
        // Arrange: Kestrel echoes the body reversed, with a Content-Length when the body is even, chunked when odd.
        const int InFlight = 16, CallsEach = 60;
        var connections = new ConcurrentDictionary<string, int>();
        await using var server = await StartAsync(null, connections);
        using var client = new Http1Client(new Uri(server.Urls.First() + "/echo"), TimeSpan.FromSeconds(30), "");

        // Act
        var mismatches = await Task.WhenAll(Enumerable.Range(0, InFlight).Select(async user =>
        {
            var wrong = 0;
            for (var i = 0; i < CallsEach; i++)
            {
                var body = new string((char)('a' + user), 1 + ((user * 31) + (i * 7)) % 3000);
                var reply = await Http1ClientTests.PostAsync(client, body);
                wrong += reply.Status == 200 && reply.Body == Reversed(body) ? 0 : 1;
            }

            return wrong;
        }));

        // Assert
        Assert.Equal(0, mismatches.Sum());
        Assert.InRange(connections.Count, 1, InFlight);
        Assert.Equal(InFlight * CallsEach, connections.Values.Sum());
    }

    [Fact]
    public async Task UnixSocket_CarriesTheCall()
    {
        var path = Path.Combine(Path.GetTempPath(), $"harness-http1-{Guid.NewGuid():N}.sock");
        try
        {
            await using var server = await StartAsync(path, new ConcurrentDictionary<string, int>());
            using var client = new Http1Client(new Uri($"unix://{path}"), TimeSpan.FromSeconds(30), "");

            var reply = await Http1ClientTests.PostAsync(client, "over a socket file");

            Assert.Equal((200, Reversed("over a socket file"), ""), reply);
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static async Task<WebApplication> StartAsync(string? unixSocket, ConcurrentDictionary<string, int> connections)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            if (unixSocket is null)
            {
                kestrel.Listen(System.Net.IPAddress.Loopback, 0, l => l.Protocols = HttpProtocols.Http1);
            }
            else
            {
                kestrel.ListenUnixSocket(unixSocket, l => l.Protocols = HttpProtocols.Http1);
            }
        });
        var server = builder.Build();
        server.MapPost(unixSocket is null ? "/echo" : "/", async context =>
        {
            connections.AddOrUpdate(context.Connection.Id, 1, (_, n) => n + 1);
            using var reader = new StreamReader(context.Request.Body, Encoding.UTF8);
            var reply = Encoding.UTF8.GetBytes(Reversed(await reader.ReadToEndAsync()));
            if (reply.Length % 2 == 0)
            {
                context.Response.ContentLength = reply.Length;
                await context.Response.Body.WriteAsync(reply);
            }
            else
            {
                // Two writes without a length: Kestrel sends chunks.
                await context.Response.Body.WriteAsync(reply.AsMemory(0, reply.Length / 2));
                await context.Response.Body.FlushAsync();
                await context.Response.Body.WriteAsync(reply.AsMemory(reply.Length / 2));
            }
        });
        await server.StartAsync();
        return server;
    }

    private static string Reversed(string text) => new([.. text.Reverse()]);
}
