namespace Harness.LoadTests.Tests.Calls;

/// <summary>Two @grpc/grpc-js servers of helloworld.Greeter for a test class: one with reflection (and a key), one without.</summary>
public sealed class GreeterServers : IAsyncLifetime
{
    public const string Key = "s3cret";

    private NodeServer? _withReflection;
    private NodeServer? _withoutReflection;

    public static string Proto => Path.Combine(NodeServer.Scripts, "helloworld.proto");

    /// <summary>Serves grpc.reflection; SayHello needs the header x-api-key: <see cref="Key"/>.</summary>
    public string WithReflection => $"http://127.0.0.1:{_withReflection!.Port}";

    public string WithoutReflection => $"http://127.0.0.1:{_withoutReflection!.Port}";

    public async Task InitializeAsync()
    {
        _withReflection = await NodeServer.StartAsync("grpc-server.js", Proto, "--key", Key);
        _withoutReflection = await NodeServer.StartAsync("grpc-server.js", Proto, "--no-reflection");
    }

    public Task DisposeAsync()
    {
        _withReflection?.Dispose();
        _withoutReflection?.Dispose();
        return Task.CompletedTask;
    }
}
