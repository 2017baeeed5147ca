import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logoutAction } from "../../server/http/logout-door";

export const loader = () => redirect("/");
export const action = (args: ActionFunctionArgs) => logoutAction(args);
