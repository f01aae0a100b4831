using System.Buffers.Binary;
using Google.Protobuf;
using Harness.Contracts;
using Harness.Contracts.Grpc;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients.Tests.Tls;

/// <summary>
/// Kestrel over HTTPS on 127.0.0.1 with the test CA's server certificate, answering the harness's Compute: as gRPC
/// over HTTP/2, or as SOAP over HTTP/1.1. With <c>requireClientCertificate</c>, a client must show one the test CA
/// issued (mTLS).
/// </summary>
internal sealed class TlsTestServer : IAsyncDisposable
{
    private const string SoapReply =
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><ComputeResponse xmlns=\"http://tempuri.org/\" "
        + "xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\"><Result>89</Result><ThreadId>6</ThreadId><ElapsedMs>12.5</ElapsedMs></ComputeResponse></s:Body></s:Envelope>";

    private readonly WebApplication _server;

    private TlsTestServer(WebApplication server, Uri address)
    {
        _server = server;
        Address = address;
    }

    /// <summary><c>https://127.0.0.1:port</c>.</summary>
    public Uri Address { get; }

    public static async Task<TlsTestServer> StartAsync(TestCertificates certificates, HttpProtocols protocols, bool requireClientCertificate = false)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(System.Net.IPAddress.Loopback, 0, listen =>
        {
            listen.Protocols = protocols;
            listen.UseHttps(new HttpsConnectionAdapterOptions
            {
                ServerCertificate = certificates.Server,
                ClientCertificateMode = requireClientCertificate ? ClientCertificateMode.RequireCertificate : ClientCertificateMode.NoCertificate,
                ClientCertificateValidation = (certificate, _, _) => certificates.IssuedByCa(certificate),
            });
        }));
        var server = builder.Build();
        server.MapPost($"/{HarnessContract.GrpcService}/{HarnessContract.Compute}", AnswerGrpcAsync);
        server.MapPost(HarnessContract.SoapPath, AnswerSoapAsync);
        await server.StartAsync();
        return new TlsTestServer(server, new Uri(server.Urls.First().Replace("[::1]", "127.0.0.1", StringComparison.Ordinal)));
    }

    public async ValueTask DisposeAsync() => await _server.DisposeAsync();

    private static async Task AnswerGrpcAsync(HttpContext context)
    {
        using var body = new MemoryStream();
        await context.Request.Body.CopyToAsync(body);
        context.Response.ContentType = "application/grpc";
        var reply = new ComputeReply { Result = 89, ThreadId = 6, ElapsedMs = 1.5 }.ToByteArray();
        var framed = new byte[5 + reply.Length];
        BinaryPrimitives.WriteUInt32BigEndian(framed.AsSpan(1), (uint)reply.Length);
        reply.CopyTo(framed, 5);
        await context.Response.Body.WriteAsync(framed);
        context.Response.AppendTrailer("grpc-status", "0");
    }

    private static async Task AnswerSoapAsync(HttpContext context)
    {
        using var reader = new StreamReader(context.Request.Body);
        await reader.ReadToEndAsync();
        context.Response.ContentType = "text/xml; charset=utf-8";
        await context.Response.WriteAsync(SoapReply);
    }
}
