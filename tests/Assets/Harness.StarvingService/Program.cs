using System.Net;
using Harness.StarvingService;
using Microsoft.AspNetCore.Server.Kestrel.Core;

// Listens as the harness's LocalProcess starts a service: gRPC (h2c) on Listen:Port, /healthz on Listen:AdminPort.
var builder = WebApplication.CreateSlimBuilder(args);
var port = builder.Configuration.GetValue<int>("Listen:Port");
var adminPort = builder.Configuration.GetValue<int>("Listen:AdminPort");
builder.WebHost.ConfigureKestrel(kestrel =>
{
    kestrel.Listen(IPAddress.Loopback, port, listen => listen.Protocols = HttpProtocols.Http2);
    kestrel.Listen(IPAddress.Loopback, adminPort, listen => listen.Protocols = HttpProtocols.Http1);
});
builder.Logging.SetMinimumLevel(LogLevel.Warning);
builder.Services.AddGrpc();
builder.Services.AddGrpcReflection();
builder.Services.AddSingleton(new WaitStyle(builder.Configuration["Starving:Style"] != "async"));

var app = builder.Build();
app.MapGrpcService<StarvingCalls>();
app.MapGrpcReflectionService();
app.MapGet("/healthz", () => "ok");
app.Run();
