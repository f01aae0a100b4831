using System.Net.Sockets;
using Harness.SoapService;
using Microsoft.Extensions.Options;

namespace Harness.ServiceDefaults.Tests;

/// <summary><c>Listen__UnixSocket</c>: a path that cannot be a socket stops the start naming the variable; a stale one is replaced.</summary>
public sealed class UnixSocketListenTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("harness-uds-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public async Task Start_WithARelativePath_FailsNamingTheVariable()
    {
        var ex = await Assert.ThrowsAsync<OptionsValidationException>(() => StartAsync("grpc.sock"));

        Assert.Contains("Listen__UnixSocket must be an absolute path such as /tmp/harness-grpc.sock; got 'grpc.sock'.", ex.Failures);
    }

    [Fact]
    public async Task Start_InAFolderThatDoesNotExist_FailsNamingTheFolder()
    {
        var path = Path.Combine(_folder, "missing", "grpc.sock");

        var ex = await Assert.ThrowsAsync<OptionsValidationException>(() => StartAsync(path));

        Assert.Contains($"Listen__UnixSocket's folder '{Path.Combine(_folder, "missing")}' does not exist; got '{path}'.", ex.Failures);
    }

    [Fact]
    public async Task Start_OnARegularFile_FailsAndLeavesTheFile()
    {
        var path = Path.Combine(_folder, "notes.txt");
        await File.WriteAllTextAsync(path, "not a socket");

        var ex = await Assert.ThrowsAsync<OptionsValidationException>(() => StartAsync(path));

        Assert.Contains($"Listen__UnixSocket '{path}' exists and is not a socket; remove it or choose another path.", ex.Failures);
        Assert.Equal("not a socket", await File.ReadAllTextAsync(path));
    }

    [Fact]
    public async Task Start_OnAStaleSocket_ReplacesIt_AndASecondServiceIsRefused()
    {
        // Arrange: a socket file nobody accepts on, as a killed service leaves it. (.NET deletes the path it bound when the
        // socket is disposed, so the file is moved away from that path first.)
        var path = Path.Combine(_folder, "grpc.sock");
        using (var left = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified))
        {
            left.Bind(new UnixDomainSocketEndPoint(Path.Combine(_folder, "bound.sock")));
            File.Move(Path.Combine(_folder, "bound.sock"), path);
        }

        // Act
        await using var first = await StartAsync(path);
        var second = await Assert.ThrowsAsync<OptionsValidationException>(() => StartAsync(path));

        // Assert: the first listens on the path, and the second did not take it from it.
        using var client = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        await client.ConnectAsync(new UnixDomainSocketEndPoint(path));
        Assert.Contains($"Listen__UnixSocket '{path}': another process is listening on this socket; stop it or choose another path.", second.Failures);
        await first.StopAsync();
    }

    private static async Task<Microsoft.AspNetCore.Builder.WebApplication> StartAsync(string socket)
    {
        var app = SoapApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Fatal", $"--Listen:UnixSocket={socket}"]);
        try
        {
            await app.StartAsync();
            return app;
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }
    }
}
