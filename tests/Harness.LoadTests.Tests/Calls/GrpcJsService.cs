using System.Diagnostics;

namespace Harness.LoadTests.Tests.Calls;

/// <summary>How a <see cref="GrpcJsService"/> serves: TLS or plain text, mTLS, reflection.</summary>
/// <param name="Tls">TLS with the test CA's server certificate (for 127.0.0.1 and localhost); false: plain text (h2c).</param>
/// <param name="RequireClientCertificate">mTLS: a client must show a certificate the test CA issued (<see cref="GrpcJsService.ClientCertFile"/>).</param>
/// <param name="Reflection">Serve grpc.reflection; false: a client must be given <see cref="GrpcJsService.ProtoFile"/>.</param>
public sealed record GrpcJsServiceOptions(bool Tls = true, bool RequireClientCertificate = false, bool Reflection = true);

/// <summary>
/// A gRPC service the project did not write, in another language: <c>tests/Assets/grpc-js-service</c> (Node.js,
/// @grpc/grpc-js), serving <c>shop.v1.Orders</c> (a unary, a server-streaming, a client-streaming and a bidirectional
/// method, snake_case fields) on 127.0.0.1 at a free port, over TLS with a CA made for the test by default. As a class
/// fixture it serves with the default options; <see cref="StartAsync"/> starts one with others. Disposing it kills the
/// process and deletes the certificates. Needs Node.js and npm: its packages are installed by the asset's install.sh
/// (scripts/test.sh runs it too), which says what is missing.
/// </summary>
public sealed class GrpcJsService : IAsyncLifetime, IAsyncDisposable
{
    private static readonly TimeSpan InstallBound = TimeSpan.FromMinutes(5);
    private static readonly SemaphoreSlim Installing = new(1, 1);
    private static bool s_installed;

    private readonly GrpcJsServiceOptions _options;
    private TestCertificates? _certificates;
    private NodeServer? _server;

    /// <summary>The class fixture: TLS, reflection, no client certificate asked.</summary>
    public GrpcJsService()
        : this(new GrpcJsServiceOptions())
    {
    }

    private GrpcJsService(GrpcJsServiceOptions options) => _options = options;

    /// <summary>The asset's folder in the repository: server.js, orders.proto and the installed node_modules.</summary>
    public static string Folder { get; } = FindFolder();

    /// <summary>The service's .proto, for <c>--proto</c>.</summary>
    public static string ProtoFile => Path.Combine(Folder, "orders.proto");

    public int Port { get; private set; }

    /// <summary><c>https://127.0.0.1:PORT</c> (<c>http://</c> without TLS).</summary>
    public string Address => $"{(_options.Tls ? "https" : "http")}://127.0.0.1:{Port}";

    /// <summary>The test CA (PEM), for <c>--cacert</c>; it issued the server's certificate and <see cref="ClientCertFile"/>.</summary>
    public string CaFile => Certificates.CaFile;

    /// <summary>A client certificate the test CA issued (PEM), for <c>--cert</c>.</summary>
    public string ClientCertFile => Certificates.ClientCertFile;

    /// <summary>The key of <see cref="ClientCertFile"/> (PKCS#8 PEM, unencrypted), for <c>--key</c>.</summary>
    public string ClientKeyFile => Certificates.ClientKeyFile;

    /// <summary>What the service printed so far, standard output and error, for a failed assertion's message.</summary>
    public string Output => _server?.Output ?? "";

    private TestCertificates Certificates => _certificates ?? throw new InvalidOperationException("the service has not started");

    public static async Task<GrpcJsService> StartAsync(GrpcJsServiceOptions options)
    {
        var service = new GrpcJsService(options);
        try
        {
            await service.InitializeAsync();
            return service;
        }
        catch
        {
            await service.DisposeAsync();
            throw;
        }
    }

    public async Task InitializeAsync()
    {
        _certificates = TestCertificates.Create();
        string[] args =
        [
            "--port", "0",
            .. _options.Tls ? ["--cert", _certificates.ServerCertFile, "--key", _certificates.ServerKeyFile] : (string[])[],
            .. _options.RequireClientCertificate ? ["--client-ca", _certificates.CaFile] : (string[])[],
            .. _options.Reflection ? [] : (string[])["--no-reflection"],
        ];
        _server = await NodeServer.StartFileAsync(Path.Combine(Folder, "server.js"), Folder, args);
        Port = _server.Port;
    }

    Task IAsyncLifetime.DisposeAsync() => DisposeAsync().AsTask();

    public ValueTask DisposeAsync()
    {
        _server?.Dispose();
        _certificates?.Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// The asset's node_modules, installed by its install.sh (once per test process: it installs from the lock when
    /// missing or older): also where the --call tests' other Node.js scripts find their packages.
    /// </summary>
    public static async Task<string> PackagesAsync()
    {
        await InstallAsync();
        return Path.Combine(Folder, "node_modules");
    }

    private static async Task InstallAsync()
    {
        await Installing.WaitAsync();
        try
        {
            if (s_installed)
            {
                return;
            }

            var start = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true };
            start.ArgumentList.Add(Path.Combine(Folder, "install.sh"));
            using var install = Process.Start(start)!;
            var output = install.StandardOutput.ReadToEndAsync();
            var errors = install.StandardError.ReadToEndAsync();
            using var bound = new CancellationTokenSource(InstallBound);
            try
            {
                await install.WaitForExitAsync(bound.Token);
            }
            catch (OperationCanceledException)
            {
                install.Kill(entireProcessTree: true);
                throw new InvalidOperationException($"{start.ArgumentList[0]} did not finish within {InstallBound.TotalMinutes:0} minutes");
            }

            if (install.ExitCode != 0)
            {
                throw new InvalidOperationException($"{start.ArgumentList[0]} failed ({install.ExitCode}): {await errors}{await output}");
            }

            s_installed = true;
        }
        finally
        {
            Installing.Release();
        }
    }

    private static string FindFolder()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "Harness.sln")))
            {
                return Path.Combine(folder.FullName, "tests", "Assets", "grpc-js-service");
            }
        }

        throw new DirectoryNotFoundException($"no Harness.sln above {AppContext.BaseDirectory}: the service's asset is found from the repository's root");
    }

}
