namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// Three servers of the Node.js service shop.v1.Orders (tests/Assets/grpc-js-service) for a test class, all over TLS
/// with one CA made for the test each: with reflection, without it, and one that requires a client certificate (mTLS).
/// </summary>
public sealed class OrdersServices : IAsyncLifetime
{
    public GrpcJsService Tls { get; private set; } = null!;

    public GrpcJsService TlsWithoutReflection { get; private set; } = null!;

    public GrpcJsService MutualTls { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var started = new[]
        {
            GrpcJsService.StartAsync(new GrpcJsServiceOptions()),
            GrpcJsService.StartAsync(new GrpcJsServiceOptions(Reflection: false)),
            GrpcJsService.StartAsync(new GrpcJsServiceOptions(RequireClientCertificate: true)),
        };
        try
        {
            await Task.WhenAll(started);
        }
        catch
        {
            // The ones that did start are not left running.
            foreach (var service in started.Where(t => t.IsCompletedSuccessfully))
            {
                await service.Result.DisposeAsync();
            }

            throw;
        }

        (Tls, TlsWithoutReflection, MutualTls) = (started[0].Result, started[1].Result, started[2].Result);
    }

    public async Task DisposeAsync()
    {
        foreach (var service in new[] { Tls, TlsWithoutReflection, MutualTls })
        {
            if (service is not null)
            {
                await service.DisposeAsync();
            }
        }
    }
}
