import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local listening on 127.0.0.1 only (issue 7): the jar has no bind option, and its Jetty
 * server, built by `new Server(port)`, listens on every interface, where anyone on the network could
 * write a sign-in request and take over a local account. Takes the jar's own arguments; starts no
 * telemetry (the jar's main would configure it).
 */
class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      // Any other kind of connector could not be bound: refuse to start rather than listen everywhere.
      if (!(connector instanceof ServerConnector)) throw new IllegalStateException("unexpected connector " + connector);
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
  }
}
