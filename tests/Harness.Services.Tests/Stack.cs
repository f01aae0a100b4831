namespace Harness.Services.Tests;

public enum Stack
{
    Soap,
    Grpc,
}
